/**
 * @steadyframe/pixi: draws a steadyframe runtime's entities with PixiJS v8.
 *
 * Two bindings, same fields (`PoseFields`: a 2D position, an optional angle, scale and alpha):
 *
 * - `bindSprites` moves a handful of display objects (Sprites, Graphics, Containers), hiding those without a
 *   live entity.
 * - `bindParticles` keeps a ParticleContainer's particles in step with the entities, for thousands of them.
 *
 * Both copy the runtime's own Frame, which is already interpolated with snaps, render delay and
 * extrapolation applied, so every interpolation option of the runtime holds.
 *
 * ```ts
 * import { bindSprites } from '@steadyframe/pixi';
 * const ships = bindSprites(runtime, sprites, { position: 'position', angle: 'angle' });
 * app.ticker.add(() => {
 *   const frame = runtime.frame(performance.now());
 *   if (frame !== null) ships.update(frame); // null: a refresh the render interval skips
 * });
 * ```
 */
export { bindParticles } from './bind-particles.ts';
export type { MakeParticle, ParticlesBinding } from './bind-particles.ts';
export { bindSprites } from './bind-sprites.ts';
export type { SpritesBinding } from './bind-sprites.ts';
export { resolveFields } from './fields.ts';
export type { FieldOf, PoseFields, ResolvedFields } from './fields.ts';
