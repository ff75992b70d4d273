/**
 * @steadyframe/pixi: draws a steadyframe runtime's entities with PixiJS v8.
 *
 * Two CPU bindings, same fields (`PoseFields`: a 2D position, an optional angle, scale and alpha), and a
 * GPU path:
 *
 * - `bindSprites` moves a handful of display objects (Sprites, Graphics, Containers), hiding those without a
 *   live entity.
 * - `bindParticles` keeps a ParticleContainer's particles in step with the entities, for thousands of them.
 * - `createInterpolatedSprites` draws them as the points of one mesh whose vertex shader blends the two
 *   states: per frame the main thread sets three uniforms, whatever the count.
 *
 * Each takes an optional `table` (a schema of `defineTables`): it then draws that table's entities alone, its
 * fields checked against the table's; `bindSprites` keeps a sprite per entity by handle, which follows its
 * entity through despawns.
 *
 * The CPU bindings copy the runtime's own Frame, which is already interpolated with snaps, render delay and
 * extrapolation applied, so every interpolation option of the runtime holds. `attachToTicker` drives either
 * from `app.ticker` with the ticker's own frame time, and renders only on the refreshes the pacer presents.
 *
 * ```ts
 * import { attachToTicker, bindSprites } from '@steadyframe/pixi';
 * const ships = bindSprites(runtime, sprites, { position: 'position', angle: 'angle' });
 * attachToTicker(app, runtime, (frame) => ships.update(frame));
 * ```
 *
 * @module @steadyframe/pixi
 */
export { bindParticles } from './bind-particles.ts';
export type { MakeParticle, ParticlesBinding, ParticlesOptions } from './bind-particles.ts';
export { bindSprites } from './bind-sprites.ts';
export type { SpritesBinding, TableSpritesBinding, TableSpritesOptions } from './bind-sprites.ts';
export { resolveFields } from './fields.ts';
export type { FieldOf, PoseFields, ResolvedFields, TableSchema } from './fields.ts';
export { attachToTicker, tickerTime } from './attach-to-ticker.ts';
export type { TickerApp, TickerLoop, TimedDrawable } from './attach-to-ticker.ts';
export { createInterpolatedSprites } from './interpolated-sprites.ts';
export type { InterpolatedSprites, InterpolatedSpritesOptions, InterpolatedSpritesStats, SpriteFields } from './interpolated-sprites.ts';
