/**
 * For many entities: entity i is particle i of a Pixi v8 ParticleContainer, one draw call for all of them.
 *
 * ```text
 *   runtime.frame(ts) ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame): the views, the list length
 *   app.render ──▶ Pixi's upload reads particle i's x, y, rotation … ──▶ accessors onto frame.fields at entity i
 * ```
 *
 * The binding's particles are Pixi `Particle`s whose bound properties are accessors onto the frame's
 * interpolated state: nothing is copied per particle. Pixi's own upload loop, which every ParticleContainer
 * runs each frame, reads the drawn values straight from the render buffer, so a frame costs one pass over the
 * particles (Pixi's) where a plain PixiJS update loop plus that upload is two.
 */
import { Particle, Texture, type ParticleContainer, type ParticleOptions } from 'pixi.js';
import type { Frame, Runtime, Schema, TableName } from 'steadyframe';
import { frameSource } from 'steadyframe/adapter';
import { NO_VIEW, resolveBinding, viewOf, type PoseFieldNames, type PoseFields, type ResolvedFields, type TableSchema } from './fields.ts';

/**
 * The look of the particle for entity `index`, asked for when the list first grows that far: a `Particle`
 * (its texture, anchor, tint, alpha, and its scale and rotation where those are not bound, are copied) or the
 * options for one. The binding makes its own particle from it, which is reused after that: a copy of one that
 * Particle's constructor made from the same look. A look equal (by value) to the one before it costs only the
 * copy; a different one costs a Particle construction too, so runs of equal looks are fastest.
 */
export type MakeParticle = (index: number) => Particle | ParticleOptions;

/** `bindParticles`' options, in place of `makeParticle`: a table to draw, and the particles' looks. */
export interface ParticlesOptions<N extends string = string> {
  /**
   * The table whose entities the particles draw (a name `defineTables` gave): particle i is the table's
   * entity i, and the fields are the table's. Without it, every entity of the frame.
   */
  readonly table?: N;
  /** As `bindParticles`' `makeParticle` argument; `index` is the table's. */
  readonly makeParticle?: MakeParticle;
}

/** What `bindParticles` returns. */
export interface ParticlesBinding<S extends Schema> {
  readonly container: ParticleContainer;
  /**
   * Points the particles at this frame's interpolated state and makes `container.particleChildren` as long as
   * `frame.count` (given a table, the table's count), shrinking it, or growing it with particles made before or
   * new ones. Constant time: nothing is written per particle, and nothing allocated except a new particle the
   * first time the count reaches a new high (and the array growing then).
   */
  update(frame: Frame<S>): void;
  /**
   * Makes particles for entities up to `count` now (they are reused when the count gets there), so that the
   * frame that first draws that many does not pay for making them. Returns `made`.
   */
  reserve(count: number): number;
  /**
   * Particles made so far: one per particle the container held at set-up, then up to the most entities any
   * frame had, or `reserve` asked for.
   */
  readonly made: number;
}

/** The ParticleContainer's properties each bound field feeds (`dynamicProperties` keys). */
const PROPERTY = { angle: 'rotation', scale: 'vertex', alpha: 'color' } as const;

const PREFIX = '@steadyframe/pixi:';

/** The frame's views the bound particles read, replaced by each `update` (the render buffer's, normally the same). */
interface Drawn {
  position: Float32Array;
  angle: Float32Array;
  scale: Float32Array;
  alpha: Float32Array;
}

/** A bound particle: a Pixi Particle plus the entity it draws (set once its constructor is done). */
interface BoundParticle extends Particle {
  _entity: number | undefined;
}

/**
 * Binds a ParticleContainer to the runtime's interpolated state: entity i is `container.particleChildren[i]`.
 * The binding owns the container's particle list and makes its particles itself: Pixi `Particle`s whose bound
 * properties (x, y; rotation, scaleX/scaleY, alpha where bound) read entity i of the newest frame given to
 * `update`, so reading `particle.x` gives what is drawn. Writing a bound property throws (the simulation owns
 * it); the rest (texture, anchor, tint, and unbound scale, rotation, alpha) are the particle's own, as usual.
 * Particles already in the container are taken as the looks of the first entities (copied into the binding's
 * particles, which replace them in the container's own array). The adapter reads values only: the runtime's
 * Frame has already blended them and applied snaps (spawns, teleports, `snapDistance`), the render delay and
 * extrapolation.
 *
 * The particles read the runtime's render buffer when Pixi draws them, not when `update` runs: sample the
 * runtime once per render (a second `runtime.frame` or `sample` between `update` and `app.render` changes what
 * they show; frame.count, which sets the list's length, is the one given to `update`).
 *
 * Pixi uploads a ParticleContainer's static properties only when told to. Give the container
 * `dynamicProperties` for what you bind (`position` always; `rotation` for `angle`, `vertex` for `scale`,
 * `color` for `alpha`); where one is static the binding calls `container.update()` every frame, which
 * re-uploads all the static data too: correct, but slower. A count that falls and grows back (entities
 * despawned, others spawned) uploads no static data until the list is longer than it ever was when drawn.
 *
 * ```ts
 * const container = new ParticleContainer({ texture, dynamicProperties: { position: true, rotation: true } });
 * const rocks = bindParticles(runtime, container, { position: 'position', angle: 'angle' },
 *   () => ({ texture, anchorX: 0.5, anchorY: 0.5 }));
 * app.stage.addChild(container);
 * attachToTicker(app, runtime, (frame) => rocks.update(frame)); // the ticker's frame time; no render on skipped refreshes
 * ```
 *
 * `makeParticle` defaults to a particle of `container.texture` (or `Texture.WHITE`) anchored at its centre.
 * In its place, options: `{ table, makeParticle }` draws one table's entities (a schema of `defineTables`):
 * particle i is the table's entity i, the fields are the table's, and another table's entities never show.
 * Particles are by index, so give a table's particles one look (a despawn moves the table's last entity into
 * the freed index); for an object per entity that follows it, `bindSprites` with a table.
 * Throws at set-up if a field does not fit (see `PoseFields`), or the table is not one of the schema's.
 */
export function bindParticles<S extends Schema>(runtime: Pick<Runtime<S>, 'schema'>, container: ParticleContainer, fields: PoseFields<S>, makeParticle?: MakeParticle): ParticlesBinding<S>;
export function bindParticles<S extends Schema, const N extends TableName<S>>(
  runtime: Pick<Runtime<S>, 'schema'>,
  container: ParticleContainer,
  fields: PoseFields<TableSchema<S, N>>,
  options: ParticlesOptions<N>,
): ParticlesBinding<S>;
export function bindParticles<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema'>,
  container: ParticleContainer,
  fields: PoseFieldNames,
  makeOrOptions?: MakeParticle | ParticlesOptions,
): ParticlesBinding<S> {
  const options: ParticlesOptions = typeof makeOrOptions === 'object' && makeOrOptions !== null ? makeOrOptions : {};
  const makeParticle = options === makeOrOptions ? options.makeParticle : (makeOrOptions as MakeParticle | undefined);
  if (makeParticle !== undefined && typeof makeParticle !== 'function') throw new TypeError(`${PREFIX} makeParticle must be a function (index) => a Particle or its options`);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options.table, 'bindParticles');
  const make: MakeParticle = makeParticle ?? (() => ({ texture: container.texture ?? Texture.WHITE, anchorX: 0.5, anchorY: 0.5 }));
  const drawn: Drawn = { position: NO_VIEW, angle: NO_VIEW, scale: NO_VIEW, alpha: NO_VIEW };
  const bound = boundParticleMaker(drawn, resolved);
  // a bound property Pixi treats as static needs the whole container re-uploaded each frame
  const properties = (container as { _properties?: Record<string, { dynamic?: boolean } | undefined> })._properties;
  const isStatic = (key: string) => properties !== undefined && properties[key]?.dynamic !== true;
  const reuploadEachFrame =
    (resolved.angle !== null && isStatic(PROPERTY.angle)) ||
    (resolved.scale !== null && isStatic(PROPERTY.scale)) ||
    (resolved.alpha !== null && isStatic(PROPERTY.alpha));
  /** Every particle made, in entity order; the container's list is a prefix of it. The container's own are looks. */
  const pool: Particle[] = (container.particleChildren as Particle[]).map((look, i) => bound(look, i));
  const grow = (count: number): void => {
    for (let i = pool.length; i < count; i++) pool.push(bound(make(i), i));
  };
  /**
   * Nothing uploaded yet: Pixi (8.22) uploads a ParticleContainer's static data (quad corners, uvs, colours) only
   * after `addParticle` or `update()`; and the container's own particles are replaced by the binding's.
   */
  let adopted = false;
  // Static uploads only past the longest list uploaded so far. Pixi (8.22) rewrites a prefix of the static
  // buffer (the list's length) and never shrinks it, and particle i is always pool[i]: a list that falls and
  // grows back draws the static data its particles already have on the GPU. An upload asked for (`update()`
  // sets `_childrenDirty`) is done when a render cleared the flag, with the list as this binding left it.
  // A renderer that draws the container for the first time makes buffers of its own (`_gpuData`, one per
  // renderer), which hold only what uploads from then on gave them: a renderer that replaced another (or
  // buffers Pixi remade after unloading the container) start from nothing uploaded. (Two renderers drawing
  // one container at once share its one `_childrenDirty`: the first to draw after an upload takes it, a Pixi
  // limit the binding does not lift.)
  const dirty = (): unknown => (container as { _childrenDirty?: unknown })._childrenDirty;
  const gpuData = (): Record<string, unknown> | undefined => (container as { _gpuData?: Record<string, unknown> })._gpuData;
  /** Whether this Pixi's container says when an upload is done, and keeps its buffers where they can be seen; if not, every count change uploads. */
  const tracked = typeof dirty() === 'boolean' && typeof gpuData() === 'object' && gpuData() !== null;
  /** Particles whose static data the renderer's buffers hold: the list's prefix at the longest upload seen done. */
  let uploaded = 0;
  /** An upload was asked for and not yet seen done. */
  let asked = false;
  /** The list's length as `update` left it: what a render since drew. */
  let lastCount = 0;
  /** Whether the container has had buffers: the first ones take the first upload; any after start empty. */
  let hadBuffers = false;
  const upload = (): void => {
    container.update();
    asked = true;
  };
  /** The container's buffers at the last look (reused, so the usual frame allocates nothing). */
  const buffers: unknown[] = [];
  /** Whether the container has buffers it did not have at the last look. */
  const newBuffers = (): boolean => {
    const all = gpuData();
    if (all === undefined) return false;
    let found = false;
    let n = 0;
    for (const key in all) {
      const buffer = all[key];
      if (buffer === undefined || buffer === null) continue;
      if (!buffers.includes(buffer)) found = true;
      n++;
    }
    if (found || n !== buffers.length) {
      buffers.length = 0;
      for (const key in all) if (all[key] !== undefined && all[key] !== null) buffers.push(all[key]);
    }
    return found;
  };
  return {
    container,
    get made() {
      return pool.length;
    },
    reserve(count) {
      if (!(Number.isInteger(count) && count >= 0)) throw new RangeError(`${PREFIX} reserve(count) takes a whole number >= 0, not ${String(count)}`);
      grow(count);
      return pool.length;
    },
    update(frame) {
      const source = frameSource(frame, table);
      const views = source.fields as { readonly [name: string]: Float32Array };
      drawn.position = viewOf(views, resolved.position);
      drawn.angle = viewOf(views, resolved.angle);
      drawn.scale = viewOf(views, resolved.scale?.name ?? null);
      drawn.alpha = viewOf(views, resolved.alpha);
      const list = container.particleChildren as Particle[];
      const count = source.count;
      let fresh = false;
      if (tracked && newBuffers()) {
        // new buffers: unless they are the container's first and only ones, which took the upload asked for,
        // they hold nothing known: upload for them
        if (hadBuffers || !(asked && dirty() === false && buffers.length === 1)) {
          fresh = true;
          asked = false;
          uploaded = 0;
        }
        hadBuffers = true;
      }
      if (asked && dirty() === false) {
        asked = false;
        uploaded = Math.max(uploaded, lastCount);
      }
      if (list.length !== count || !adopted) {
        if (!adopted) {
          adopted = true;
          list.length = 0;
        }
        if (list.length > count) list.length = count;
        else {
          grow(count);
          for (let i = list.length; i < count; i++) list.push(pool[i]!);
        }
        // new particles' static data (texture, uvs, anchors) must reach the GPU; particles back in the list
        // within the longest upload have theirs there still
        if (count > uploaded || !tracked || reuploadEachFrame || fresh) upload();
      } else if (reuploadEachFrame || fresh) upload();
      lastCount = count;
    },
  };
}

/** The options a look may set; anything else in an options object is left out (one shape for every particle). */
const LOOK_KEYS = ['texture', 'anchorX', 'anchorY', 'scaleX', 'scaleY', 'rotation', 'tint', 'alpha'] as const;

/**
 * A look as options for Particle's constructor: a Particle's texture, anchor, scale and rotation (its tint and
 * alpha are copied after, as stored: see `boundParticleMaker`), or the look keys an options object defines.
 * Particle fills in the rest from its defaults, in their order, so every particle gets the same shape.
 */
function optionsOf(look: Particle | ParticleOptions): ParticleOptions {
  if (look instanceof Particle) {
    return { texture: look.texture, anchorX: look.anchorX, anchorY: look.anchorY, scaleX: look.scaleX, scaleY: look.scaleY, rotation: look.rotation };
  }
  const options: Record<string, unknown> = {};
  for (const key of LOOK_KEYS) if (look[key] !== undefined) options[key] = look[key];
  return options as ParticleOptions;
}

/** Particle's colour state, as Pixi v8 keeps it: the tint in its own byte order, the alpha, and their packing. */
interface ParticleColour {
  _tint: number;
  _alpha: number;
  _updateColor(): void;
}

/**
 * The binding's particle class: a Particle subclass with accessors for the bound properties on its prototype,
 * reading `drawn` at the particle's entity. One class per binding, so Pixi's upload loop over a container
 * sees one shape and one set of getters (monomorphic, inlined). Particle's constructor writes its defaults
 * through the setters, which ignore them; after that a write throws. Pixi 8.22 declares no class fields; if a
 * later version did, its own properties would hide the accessors: the constructor deletes them (correct, but
 * the particles become slow dictionary objects), and says so once.
 *
 * A Particle look's tint is copied as Particle stores it (`_tint`, in its own byte order), not through the
 * `tint` getter and setter: before Pixi 8.11 the setter took a number as stored, so a round trip through the
 * getter swapped red and blue.
 */
function boundParticleMaker(drawn: Drawn, resolved: ResolvedFields): (look: Particle | ParticleOptions, index: number) => Particle {
  let checked = false;
  class Bound extends Particle {
    declare _entity: number | undefined;
    constructor(look: ParticleOptions, index: number) {
      super(look);
      if (!checked || shadowed) {
        checked = true;
        for (const key of keys) {
          if (!Object.hasOwn(this, key)) continue;
          if (!shadowed) console.warn(`${PREFIX} this Pixi's Particle defines "${key}" as its own field: bound particles work, but slowly`);
          shadowed = true;
          delete (this as unknown as Record<string, unknown>)[key];
        }
      }
      this._entity = index;
    }
  }
  let shadowed = false;
  const keys: string[] = [];
  const define = (key: string, get: (this: BoundParticle) => number, field: string) => {
    keys.push(key);
    Object.defineProperty(Bound.prototype, key, {
      configurable: true,
      enumerable: false,
      get,
      set(this: BoundParticle) {
        if (this._entity !== undefined) {
          throw new TypeError(`${PREFIX} particle ${this._entity}'s ${key} is the runtime's interpolated "${field}": change it in the simulation`);
        }
      },
    });
  };
  const position = resolved.position;
  define('x', function () { return drawn.position[2 * this._entity!]!; }, position);
  define('y', function () { return drawn.position[2 * this._entity! + 1]!; }, position);
  if (resolved.angle !== null) define('rotation', function () { return drawn.angle[this._entity!]!; }, resolved.angle);
  if (resolved.scale !== null) {
    const name = resolved.scale.name;
    if (resolved.scale.width === 2) {
      define('scaleX', function () { return drawn.scale[2 * this._entity!]!; }, name);
      define('scaleY', function () { return drawn.scale[2 * this._entity! + 1]!; }, name);
    } else {
      define('scaleX', function () { return drawn.scale[this._entity!]!; }, name);
      define('scaleY', function () { return drawn.scale[this._entity!]!; }, name);
    }
  }
  const alphaBound = resolved.alpha !== null;
  if (resolved.alpha !== null) {
    const clamped = (p: BoundParticle) => Math.min(Math.max(drawn.alpha[p._entity!]!, 0), 1);
    define('alpha', function () { return clamped(this); }, resolved.alpha);
    // Pixi's packed colour (what its upload reads): the tint with the drawn alpha as the top byte, as
    // Particle's own _updateColor packs it, computed on each read; so Particle's packing (on a tint change)
    // has nothing to do
    define('color', function () { return (this as unknown as ParticleColour)._tint + (((clamped(this) * 255) | 0) << 24); }, resolved.alpha);
    Object.defineProperty(Bound.prototype, '_updateColor', { configurable: true, writable: true, value: () => undefined });
  }
  /** A particle made by Particle's constructor (through Bound's) from `look`. */
  const construct = (look: Particle | ParticleOptions, index: number | undefined): BoundParticle => {
    const particle = new Bound(optionsOf(look), index ?? 0) as BoundParticle;
    particle._entity = index;
    if (look instanceof Particle) {
      const from = look as unknown as ParticleColour;
      const to = particle as unknown as ParticleColour;
      if (typeof from._tint === 'number') to._tint = from._tint;
      if (!alphaBound && typeof from._alpha === 'number') to._alpha = from._alpha;
      to._updateColor();
    }
    return particle;
  };
  const copy = fastCopy(Bound.prototype as BoundParticle, resolved, construct);
  if (copy === null) return (look, index) => construct(look, index);
  // what the last template was made from (lookOf), and that template (entity undefined: never drawn or pooled)
  let made: readonly unknown[] | null = null;
  let template: BoundParticle | null = null;
  return (look, index) => {
    const what = lookOf(look);
    if (template === null || what === null || !sameValues(what, made!)) {
      template = construct(look, undefined);
      made = what;
    }
    return copy(template, index);
  };
}

/**
 * The values a look makes a particle from, to tell whether the next look makes the same one: a Particle's
 * texture, anchor, scale, rotation and colour as stored (see `optionsOf` and the colour copy), or an options
 * object's look keys. Kept as values, so a look object changed between calls is seen as new; null when they
 * cannot be compared (a tint given as an object, which may change inside). Named loads, no loop: this runs
 * once a particle.
 */
function lookOf(look: Particle | ParticleOptions): unknown[] | null {
  if (look instanceof Particle) {
    const colour = look as unknown as ParticleColour;
    return [true, look.texture, look.anchorX, look.anchorY, look.scaleX, look.scaleY, look.rotation, colour._tint, colour._alpha];
  }
  const o = look;
  if (typeof o.tint === 'object' && o.tint !== null) return null;
  return [false, o.texture, o.anchorX, o.anchorY, o.scaleX, o.scaleY, o.rotation, o.tint, o.alpha];
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Particle's own fields as Pixi 8.22's constructor leaves them, in its order (those bound are accessors). */
const PARTICLE_FIELDS = ['anchorX', 'anchorY', 'x', 'y', 'scaleX', 'scaleY', 'rotation', '_tint', 'color', '_alpha', 'texture'] as const;

/**
 * The fast way to make a bound particle: a copy of a template that Particle's constructor made from the same
 * look, written field by field (Particle's constructor spreads its options over its defaults and assigns them
 * by name, and parses the tint: far slower a particle than the copy, as steadyframe's ARCHITECTURE.md,
 * "Measurements behind the code", has it), with the prototype of the binding's class. It is used only if a copy
 * has exactly the own fields, in the same order and with the same values, as a particle that Particle's
 * constructor made, and Particle's colour accessors work on it (a Pixi whose Particle kept private state would
 * fail that): else null, and every particle goes through the constructor. Every particle of a binding is a copy
 * (templates are never pooled): one shape for Pixi's upload.
 */
function fastCopy(
  prototype: BoundParticle,
  resolved: ResolvedFields,
  construct: (look: ParticleOptions, index: number | undefined) => BoundParticle,
): ((template: BoundParticle, index: number) => Particle) | null {
  const angle = resolved.angle !== null;
  const scale = resolved.scale !== null;
  const alpha = resolved.alpha !== null;
  // the fields a copy writes: every field of Particle's but those the binding reads from the runtime
  const own = PARTICLE_FIELDS.filter(
    (key) => key !== 'x' && key !== 'y' && !(angle && key === 'rotation') && !(scale && (key === 'scaleX' || key === 'scaleY')) && !(alpha && (key === '_alpha' || key === 'color')),
  );
  function Copy(this: Record<string, unknown>, t: Record<string, unknown>, index: number): void {
    // one straight line of stores per field, in the constructor's order: the same hidden class for every copy
    this.anchorX = t.anchorX;
    this.anchorY = t.anchorY;
    if (!scale) {
      this.scaleX = t.scaleX;
      this.scaleY = t.scaleY;
    }
    if (!angle) this.rotation = t.rotation;
    this._tint = t._tint;
    if (!alpha) {
      this.color = t.color;
      this._alpha = t._alpha;
    }
    this.texture = t.texture;
    this._entity = index;
  }
  Copy.prototype = prototype;
  const make = (t: BoundParticle, index: number) => new (Copy as unknown as new (t: BoundParticle, index: number) => Particle)(t, index);
  try {
    // every look key away from Particle's defaults, so a copy that missed one differs
    const look: ParticleOptions = { texture: Texture.WHITE, anchorX: 0.25, anchorY: 0.75, scaleX: 2, scaleY: 3, rotation: 0.5, tint: 0x123456, alpha: 0.5 };
    const made = construct(look, 7);
    const template = construct(look, undefined);
    const copied = make(template, 7) as unknown as Record<string, unknown>;
    const madeKeys = Object.keys(made);
    const copiedKeys = Object.keys(copied);
    if (madeKeys.join() !== [...own, '_entity'].join() || copiedKeys.join() !== madeKeys.join()) return null;
    for (const key of madeKeys) if (!Object.is(copied[key], (made as unknown as Record<string, unknown>)[key])) return null;
    // Particle's accessors and methods on a copy (they would throw on a Pixi whose Particle keeps #private state)
    const p = copied as unknown as Particle;
    if (p.tint !== made.tint || (!alpha && p.alpha !== made.alpha)) return null;
    if (!alpha) {
      p.tint = 0x654321;
      p.alpha = 0.25;
      p.tint = 0x123456;
      p.alpha = 0.5;
    }
    (p as unknown as ParticleColour)._updateColor();
    if (!alpha && p.color !== made.color) return null;
  } catch {
    return null;
  }
  return make;
}
