/**
 * The world: the simulation's private copy of the entity fields, which `init` and `step` write. Each publish
 * copies its live entities (0 .. count - 1) into the back slot, generations included (core/publish-copy.ts).
 */
import type { WorldState } from '../core/recording.ts';
import { gameView, type Layout } from '../core/layout.ts';
import { blockRuns, copyAcross } from '../core/publish-copy.ts';
import type { EntityField, FieldViews, GameField, Schema } from '../core/schema.ts';
import { createWorldTables, type WorldTables } from './world-tables.ts';

/** The game fields (`scope: 'game'`) as the step reads and writes them: one number each. */
export type WorldGameState<S extends Schema> = { [K in GameField<S>]: number };

/**
 * Per-entity state the simulation keeps but never publishes (velocity, health, an AI state): name -> floats per
 * entity. Declared in the definition's `privateFields`, e.g. `{ velocity: { width: 2 } }`.
 */
export type PrivateFieldSpec = Readonly<Record<string, { readonly width: number }>>;

/** One Float32Array per private field, entity i's components at i * width ... (like `fields`). */
export type PrivateViews<P extends PrivateFieldSpec> = { readonly [K in keyof P]: Float32Array };

export interface World<S extends Schema, P extends PrivateFieldSpec = Record<never, never>> {
  /** One view per schema field; stable for the life of the simulation, so they may be cached. */
  readonly fields: FieldViews<S>;
  /**
   * One view per private field (`privateFields`): simulated, never published, so never drawn and never copied by
   * a publish; moved with `despawn`'s swap-remove, zeroed by a restart from scratch, and put back as they were at
   * the last publish by `restart('last')`. Plain memory of this worker's own. Stable views.
   */
  readonly private: PrivateViews<P>;
  /**
   * The game's state: one number per game field of the schema (`scope: 'game'`: a score, lives, a timer), read
   * and written like plain properties. Published with the entities each tick, so the page's frame shows the state
   * of the same ticks as its bodies (`frame.state`); zeroed by a restart from scratch, put back by
   * `restart('last')` and `restore` as it was. Stored as float64.
   */
  readonly state: WorldGameState<S>;
  /**
   * The schema's entity tables (`defineTables`), by name: each with its own fields, count, spawn and despawn, and
   * handles that follow an entity through despawns (worker/world-tables.ts). Empty for a plain schema.
   */
  readonly tables: WorldTables<S>;
  readonly capacity: number;
  /**
   * Live entities: indices 0 .. count - 1 are published. Setting it outside 0..capacity throws. Entities that
   * a larger count brings in snap on their first tick (they have no previous state to blend from). With tables,
   * the entities up to the end of the last table's live ones (what a publish copies); change the tables' counts.
   */
  count: number;
  /**
   * Adds an entity at index `count` and returns its index, or -1 when the world is full. It snaps this tick.
   * With tables, `world.tables.x.spawn()` (this throws).
   */
  spawn(): number;
  /**
   * Removes entity `index` by moving the last live entity into its place (all fields), and shrinks `count`.
   * The moved entity snaps this tick, so it does not streak across the screen. Returns the index that moved
   * (the old `count - 1`), or -1 if `index` was the last one or out of range.
   */
  despawn(index: number): number;
  /**
   * Marks entity `index` not to be blended this tick (a teleport): the renderer shows its new state at once.
   * Returns false, and does nothing, for an index outside 0..capacity - 1.
   */
  snap(index: number): boolean;
}

/** The world plus what the loop needs and the game does not see. */
export interface WorldInternals<S extends Schema, P extends PrivateFieldSpec = Record<never, never>> {
  readonly world: World<S, P>;
  /**
   * After a publish that took: keeps the private fields' live entities as they are now, for `restore` (so
   * `restart('last')` finds them as they were when the state it restores was published). Nothing to do, and
   * nothing done, without private fields.
   */
  published(): void;
  /** Entities marked to snap since the last `takeSnaps`. */
  takeSnaps(): number;
  /** Puts back a published state (a block laid out like the world's): its first `count` entities, now live. */
  restore(block: Float32Array, count: number): void;
  /** Empties the world for a restart from scratch: no entities, fields zeroed, every entity marked to snap. */
  clear(): void;
  /** The live entities' private fields, their runs one after another (what a recording keeps of them). */
  privateLive(): Float32Array;
  /** Makes `state` the world: its count, each field's live run, its generations (the live ones, or every slot's) and private runs. */
  load(state: WorldState): void;
}

export function createWorld<S extends Schema, P extends PrivateFieldSpec = Record<never, never>>(
  layout: Layout,
  block: Float32Array,
  fields: FieldViews<S>,
  generation: Uint32Array,
  privateFields: P = {} as P,
): WorldInternals<S, P> {
  const capacity = layout.capacity;
  const privateRuns = Object.entries(privateFields).map(([name, { width }]) => {
    if (!Number.isInteger(width) || width < 1) {
      throw new RangeError(`steadyframe: private field "${name}" needs a whole width of at least 1 (floats per entity); got ${String(width)}`);
    }
    if (name in fields) throw new TypeError(`steadyframe: private field "${name}" has the name of a schema field; rename one`);
    // the live values, and a copy as of the last publish (for restart('last'))
    return { name, view: new Float32Array(capacity * width), kept: new Float32Array(capacity * width), width };
  });
  const privateViews = Object.fromEntries(privateRuns.map((r) => [r.name, r.view])) as PrivateViews<P>;
  let keptCount = 0;
  const views = [...layout.fields.map((f) => ({ view: fields[f.name as EntityField<S>], width: f.width })), ...privateRuns];
  /** Entity `to` <- entity `from`, every field and private field. */
  const move = (to: number, from: number): void => {
    for (const { view, width } of views) view.copyWithin(to * width, from * width, from * width + width);
  };
  // the game run of the world's block: one float64 per game field, a property of `world.state` each
  const game = gameView(block.buffer, block.byteOffset, layout);
  const state = {} as WorldGameState<S>;
  for (const field of layout.game) {
    const i = field.index;
    Object.defineProperty(state, field.name, {
      enumerable: true,
      get: () => game[i]!,
      set: (value: number) => {
        game[i] = value;
      },
    });
  }
  Object.seal(state);
  let count = 0;
  let snaps = 0;
  const snap = (index: number): void => {
    // a new generation: where previous and current differ, the renderer takes the current state as it is
    generation[index] = (generation[index]! + 1) >>> 0;
    snaps++;
  };
  const hasTables = layout.tables.length > 0;
  const tables = createWorldTables<S>({
    layout,
    fields: fields as Readonly<Record<string, Float32Array>>,
    privateViews: privateRuns,
    game,
    move,
    snap,
    resized: () => {
      count = tables.extent();
    },
  });
  const noFlat = (call: string): never => {
    const names = layout.tables.map((t) => t.name).join(', ');
    throw new TypeError(`steadyframe: world.${call} on a schema of tables; use a table's: world.tables.<name>.${call} (${names})`);
  };
  const world: World<S, P> = {
    fields,
    private: privateViews,
    state,
    tables: tables.tables,
    capacity,
    get count() {
      return count;
    },
    set count(n: number) {
      if (!Number.isInteger(n) || n < 0 || n > capacity) {
        throw new RangeError(`steadyframe: world.count must be a whole number from 0 to the capacity ${capacity}; got ${String(n)}`);
      }
      count = n;
    },
    spawn() {
      if (hasTables) return noFlat('spawn()');
      if (count >= capacity) return -1;
      snap(count);
      return count++;
    },
    despawn(index) {
      if (hasTables) return noFlat('despawn(index)');
      if (!Number.isInteger(index) || index < 0 || index >= count) return -1;
      const last = count - 1;
      count = last;
      if (index === last) return -1;
      move(index, last);
      snap(index);
      return last;
    },
    snap(index) {
      if (!Number.isInteger(index) || index < 0 || index >= capacity) return false;
      snap(index);
      return true;
    },
  };
  return {
    world,
    published() {
      if (privateRuns.length === 0) return;
      for (const { view, kept, width } of privateRuns) kept.set(view.subarray(0, count * width));
      keptCount = count;
    },
    takeSnaps() {
      const taken = snaps;
      snaps = 0;
      return taken;
    },
    restore(from, n) {
      // the published live entities only: past its count a published block holds older, dead values, and the
      // world's own generations there must not go back (a later spawn's bump must differ from any published one)
      copyAcross(from, block, blockRuns(layout), n);
      // private fields as of that publish (the worker's own copy: they were never published)
      for (const { view, kept, width } of privateRuns) {
        view.set(kept.subarray(0, Math.min(n, keptCount) * width));
      }
      count = n;
      if (hasTables) tables.rebuild();
    },
    clear() {
      for (const { view } of views) view.fill(0);
      game.fill(0);
      for (let i = 0; i < capacity; i++) snap(i);
      count = 0;
      if (hasTables) tables.rebuild();
    },
    privateLive() {
      const out = new Float32Array(privateRuns.reduce((n, r) => n + r.width * count, 0));
      let at = 0;
      for (const { view, width } of privateRuns) {
        out.set(view.subarray(0, width * count), at);
        at += width * count;
      }
      return out;
    },
    load(state) {
      const n = state.count;
      const wanted = views.reduce((sum, v) => sum + v.width * n, 0);
      // generations: the live entities', or every slot's (a snapshot's, for the spawns after it)
      if (
        n > capacity ||
        state.fields.length + state.private.length !== wanted ||
        (state.generations.length !== n && state.generations.length !== capacity) ||
        state.game.length !== game.length
      ) {
        throw new RangeError(`steadyframe: a state of ${n} entities that does not fit this world (capacity ${capacity}, ${views.length} fields)`);
      }
      let at = 0;
      let privateAt = 0;
      for (let v = 0; v < views.length; v++) {
        const { view, width } = views[v]!;
        const isPrivate = v >= layout.fields.length; // the schema's fields first, then the private ones
        const source = isPrivate ? state.private.subarray(privateAt, privateAt + width * n) : state.fields.subarray(at, at + width * n);
        view.set(source);
        if (isPrivate) privateAt += width * n;
        else at += width * n;
      }
      generation.set(state.generations);
      game.set(state.game);
      count = n;
      if (hasTables) tables.rebuild();
    },
  };
}
