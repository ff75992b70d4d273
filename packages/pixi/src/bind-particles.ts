/**
 * For many entities: entity i is particle i of a Pixi v8 ParticleContainer, one draw call for all of them.
 *
 * ```text
 *   runtime.frame(ts) ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ particleChildren[0 .. count)
 * ```
 */
import { Particle, Texture, type ParticleContainer } from 'pixi.js';
import type { Frame, Runtime, Schema } from 'steadyframe';
import { resolveFields, viewOf, type PoseFields } from './fields.ts';

/** Makes the particle for entity `index` when the list first grows that far; it is reused after that. */
export type MakeParticle = (index: number) => Particle;

/** What `bindParticles` returns. */
export interface ParticlesBinding<S extends Schema> {
  readonly container: ParticleContainer;
  /**
   * Makes `container.particleChildren` as long as `frame.count` (shrinking it, or growing it with particles
   * made before or new ones from `makeParticle`), then sets particle i's x, y (and rotation, scaleX/scaleY,
   * alpha, where bound) from the frame's entity i. Allocates nothing, except a new particle the first time
   * the count reaches a new high (and the array growing then).
   */
  update(frame: Frame<S>): void;
  /** Particles made so far: the most entities any frame had. */
  readonly made: number;
}

/** The ParticleContainer's properties each bound field writes (`dynamicProperties` keys). */
const PROPERTY = { angle: 'rotation', scale: 'vertex', alpha: 'color' } as const;

/**
 * Binds a ParticleContainer to the runtime's interpolated state: entity i is `container.particleChildren[i]`.
 * The binding owns the container's particle list; particles already in it are reused first. The adapter
 * only copies values: the runtime's Frame has already blended them and applied snaps (spawns, teleports,
 * `snapDistance`), the render delay and extrapolation.
 *
 * Pixi uploads a ParticleContainer's static properties only when told to. Give the container
 * `dynamicProperties` for what you bind (`position` always; `rotation` for `angle`, `vertex` for `scale`,
 * `color` for `alpha`); where one is static the binding calls `container.update()` every frame, which
 * re-uploads all the static data too: correct, but slower.
 *
 * ```ts
 * const container = new ParticleContainer({ texture, dynamicProperties: { position: true, rotation: true } });
 * const rocks = bindParticles(runtime, container, { position: 'position', angle: 'angle' },
 *   () => new Particle({ texture, anchorX: 0.5, anchorY: 0.5 }));
 * app.stage.addChild(container);
 * attachToTicker(app, runtime, (frame) => rocks.update(frame)); // the ticker's frame time; no render on skipped refreshes
 * ```
 *
 * `makeParticle` defaults to a particle of `container.texture` (or `Texture.WHITE`) anchored at its centre.
 * Throws at set-up if a field does not fit (see `PoseFields`).
 */
export function bindParticles<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema'>,
  container: ParticleContainer,
  fields: PoseFields<S>,
  makeParticle?: MakeParticle,
): ParticlesBinding<S> {
  const resolved = resolveFields(runtime.schema, fields);
  const make: MakeParticle =
    makeParticle ?? (() => new Particle({ texture: container.texture ?? Texture.WHITE, anchorX: 0.5, anchorY: 0.5 }));
  const scaleWidth = resolved.scale?.width ?? 0;
  const scaleName = resolved.scale?.name ?? null;
  // a bound property Pixi treats as static needs the whole container re-uploaded each frame
  const properties = (container as { _properties?: Record<string, { dynamic?: boolean } | undefined> })._properties;
  const isStatic = (key: string) => properties !== undefined && properties[key]?.dynamic !== true;
  const reuploadEachFrame =
    (resolved.angle !== null && isStatic(PROPERTY.angle)) ||
    (resolved.scale !== null && isStatic(PROPERTY.scale)) ||
    (resolved.alpha !== null && isStatic(PROPERTY.alpha));
  /** Every particle made or adopted, in entity order; the container's list is a prefix of it. */
  const pool: Particle[] = container.particleChildren.slice() as Particle[];
  /**
   * Nothing uploaded yet: Pixi (8.22) uploads a ParticleContainer's static data (quad corners, uvs, colours) only
   * after `addParticle` or `update()`, so particles handed to its constructor would be drawn as nothing, and the
   * binding may never need to grow the list they already fill.
   */
  let uploaded = false;
  return {
    container,
    get made() {
      return pool.length;
    },
    update(frame) {
      const list = container.particleChildren as Particle[];
      const count = frame.count;
      if (list.length !== count || !uploaded) {
        uploaded = true;
        if (list.length > count) list.length = count;
        else {
          for (let i = list.length; i < count; i++) {
            if (i === pool.length) pool.push(make(i));
            list.push(pool[i]!);
          }
        }
        // new (or adopted) particles' static data (texture, uvs, anchors) must reach the GPU
        container.update();
      } else if (reuploadEachFrame) container.update();
      const views = frame.fields as { readonly [name: string]: Float32Array };
      const position = viewOf(views, resolved.position);
      const angle = resolved.angle === null ? null : viewOf(views, resolved.angle);
      const scale = scaleName === null ? null : viewOf(views, scaleName);
      const alpha = resolved.alpha === null ? null : viewOf(views, resolved.alpha);
      // the common bindings get loops of their own, with nothing to test per particle: these loops are the
      // whole per-entity cost of the CPU path, and a plain PixiJS update loop is what they are measured against
      if (scale === null && alpha === null) {
        if (angle === null) {
          for (let i = 0, j = 0; i < count; i++, j += 2) {
            const p = list[i]!;
            p.x = position[j]!;
            p.y = position[j + 1]!;
          }
        } else {
          for (let i = 0, j = 0; i < count; i++, j += 2) {
            const p = list[i]!;
            p.x = position[j]!;
            p.y = position[j + 1]!;
            p.rotation = angle[i]!;
          }
        }
        return;
      }
      for (let i = 0; i < count; i++) {
        const p = list[i]!;
        p.x = position[2 * i]!;
        p.y = position[2 * i + 1]!;
        if (angle !== null) p.rotation = angle[i]!;
        if (scale !== null) {
          if (scaleWidth === 2) {
            p.scaleX = scale[2 * i]!;
            p.scaleY = scale[2 * i + 1]!;
          } else p.scaleX = p.scaleY = scale[i]!;
        }
        if (alpha !== null) p.alpha = alpha[i]!;
      }
    },
  };
}
