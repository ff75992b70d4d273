/**
 * The glue between one Rapier world and steadyframe entities, for both of Rapier's builds: one target's bodies
 * (a `World`, or a table: `PhysicsOf`), or several tables' in the same Rapier world (`TablesPhysicsOf`,
 * `physics.tables.ships`). Each target's bodies are a `BodySet` (body-set.ts); this file holds what they share:
 * the Rapier world, the step, the copy pass over every set, contacts, save and load. Only the pose copy differs
 * between 2D and 3D (`PoseCopy`, from `physics.ts` and `physics-2d.ts`, one per target).
 *
 *   Rapier world ─┬─ set 0  ships  (world.tables.ships)   entity i <-> body handles0[i]
 *                 ├─ set 1  rocks  (world.tables.rocks)   entity i <-> body handles1[i]
 *                 └─ colliders with no body (ground): no set; contacts name them as -1
 *   lookup        body handle -> set + sets * index (one Map for all sets, touched on add and remove only)
 *
 * Saved bytes: each set's part in set order (count u32, each entity's body handle f64, each state u8); the
 * colliders removed since the last drain (count u32, each collider handle, set and entity handle as f64: the
 * next step reports their ends); then Rapier's snapshot (`takeSnapshot`).
 */
import { createBodySet, poseField, type BodiesOf, type BodyHost, type BodySet, type PoseCopy } from './body-set.ts';
import { createContactCollector, type ContactCollector, type ContactEmitter, type ContactOptions, type ContactSides } from './contact-events.ts';
import { contactRouting } from './contact-pairs.ts';
import type { EntityTarget, TablesTarget } from './entity-target.ts';
import type { BodyApi, ColliderDescApi, RapierApi, WorldApi } from './rapier-api.ts';

export { poseField };
export type { BodiesOf, PoseCopy };

/** What every Physics has, of one target or of tables: the Rapier world, its step, contacts, save and load. */
export interface PhysicsCoreOf<W> {
  /** The Rapier world. Create joints, query it, read events; add and remove bodies through `add`/`remove`. */
  readonly world: W;
  /**
   * Steps Rapier by `dt` seconds (a steadyframe tick's `tick.dt`), then `publish`es. With `contacts: { events:
   * true }` it also keeps the step's contact starts and ends for `emitContacts` (the previous step's, not
   * emitted by then, are dropped).
   */
  step(dt: number): void;
  /**
   * Emits the last step's contact starts and ends on `tick` (the tick being made), each naming the entities as
   * they are now: call it last in the step, after any `remove`, so the indices are the published tick's
   * (`physicsSimulation` does, after `afterStep`). Returns how many the event ring took; 0 without
   * `contacts: { events: true }`. Allocates nothing.
   */
  emitContacts(tick: ContactEmitter): number;
  /**
   * Copies the pose of every awake body (and of every body that fell asleep since the last copy) into the
   * fields, of every target; fixed bodies are copied by `add` and `teleport` only (a fixed body moved
   * otherwise, or turned dynamic with `setBodyType`, needs a `teleport` to show it). Allocates nothing. Returns
   * how many bodies it copied.
   */
  publish(): number;
  /** Removes every body (every target's count becomes 0). */
  clear(): void;
  /**
   * The Rapier world (`takeSnapshot`) and which body each entity is, of every target, as bytes: a simulation's
   * `save()` (a `runtime.snapshot()`, a recording started mid-session). Use Rapier's deterministic build for a
   * snapshot that steps on alike elsewhere.
   */
  save(): Uint8Array;
  /**
   * Puts back what `save` returned (`World.restoreSnapshot`; the targets already loaded, with the same counts):
   * a new Rapier world in place of this one, so bodies and colliders taken from `physics.world` before are
   * stale. Throws if the bytes do not fit.
   */
  load(saved: Uint8Array): void;
  /** Frees the Rapier world. */
  dispose(): void;
}

/**
 * What a Physics of one target is, in either dimension: `W` the Rapier world of the build, `Body` its rigid
 * body, `BodyDesc` and `ColliderDesc` its descriptions, `Pose` a teleport's arguments after the index. Entity i
 * of the target is body i.
 */
export interface PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose extends unknown[]> extends PhysicsCoreOf<W>, BodiesOf<Body, BodyDesc, ColliderDesc, Pose> {
  /** @deprecated `bodyHandle(index)`: the same Rapier body handle, named apart from a table's steadyframe `handle(i)`. */
  handle(index: number): number;
  /** @deprecated `indexOfBody(bodyHandle)`: the same, named apart from a table's `indexOf(handle)`. */
  indexOf(bodyHandle: number): number;
  /** Removes every body (the target's count becomes 0). */
  clear(): void;
}

/** One table's bodies in a Physics of tables (`physics.tables.ships`). */
export interface TableBodiesOf<Body, BodyDesc, ColliderDesc, Pose extends unknown[]> extends BodiesOf<Body, BodyDesc, ColliderDesc, Pose> {
  /** The table's name, as the Physics' `tables` option has it. */
  readonly name: string;
}

/** A Physics of several tables in one Rapier world, `K` their names. */
export interface TablesPhysicsOf<K extends string, W, Body, BodyDesc, ColliderDesc, Pose extends unknown[]> extends PhysicsCoreOf<W> {
  /** Each table's bodies: `physics.tables.ships.add(...)`, `remove(i)`, `body(i)`, `teleport(i, ...)`. */
  readonly tables: { readonly [N in K]: TableBodiesOf<Body, BodyDesc, ColliderDesc, Pose> };
  /**
   * The table whose entity a Rapier body handle is (a ray cast's `collider.parent().handle`), or null (a body
   * not added through the Physics, or removed); then `.indexOfBody(bodyHandle)` gives the entity. Allocates
   * nothing.
   */
  tableOf(bodyHandle: number): TableBodiesOf<Body, BodyDesc, ColliderDesc, Pose> | null;
}

/** The pose field options of a dimension (3D: position, rotation; 2D: position, angle), by name. */
export type PoseFields = { readonly [option: string]: unknown };

/** What a dimension gives the shared glue: its world, and the pose copy over a target's fields. */
export interface DimensionOf<R, W extends WorldApi, Body, Pose extends unknown[], O> {
  createWorld(rapier: R, options: O): W;
  /** The pose copy for `target` with `fields` (the options' field names); `where` names the table in errors. */
  pose(target: EntityTarget, fields: O, where: string): PoseCopy<W, Body, Pose>;
}

/** The options every dimension shares: contacts, and with tables the per-table field names. */
export interface SharedOptions {
  readonly contacts?: ContactOptions;
  readonly tables?: { readonly [name: string]: object };
}

type AnyWorld<Body, BodyDesc, ColliderDesc> = WorldApi<Body & BodyApi, BodyDesc, ColliderDesc>;

/**
 * Binds a new Rapier world (made by the dimension) to `target`: one target, or with `options.tables` the named
 * tables of `target.tables`. Throws at set-up on options that do not fit.
 */
export function createPhysicsOf<R extends RapierApi<W>, W extends AnyWorld<Body, BodyDesc, ColliderDesc>, Body extends BodyApi, BodyDesc, ColliderDesc extends ColliderDescApi, Pose extends unknown[], O extends SharedOptions>(
  rapier: R,
  target: EntityTarget | TablesTarget,
  options: O,
  dimension: DimensionOf<R, W, Body, Pose, O>,
): PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose> | TablesPhysicsOf<string, W, Body, BodyDesc, ColliderDesc, Pose> {
  const tables = options.tables;
  if (tables === undefined) {
    const pose = dimension.pose(target as EntityTarget, options, '');
    return createBodies<W, Body, BodyDesc, ColliderDesc, Pose>(rapier, dimension.createWorld(rapier, options), [{ name: '', target: target as EntityTarget, pose }], options.contacts, false) as PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose>;
  }
  const names = Object.keys(tables);
  const all = (target as Partial<TablesTarget>).tables;
  if (names.length === 0) throw new Error("steadyframe: @steadyframe/rapier's tables option names no table: give it the tables the bodies are in, e.g. { tables: { rocks: {} } }");
  const parts = names.map((name) => {
    const table = all === undefined ? undefined : (all as { readonly [name: string]: EntityTarget | undefined })[name];
    if (table === undefined) throw new Error(`steadyframe: @steadyframe/rapier tables: "${name}" is not a table of the target (its tables: ${all === undefined ? 'none' : Object.keys(all).join(', ')}); declare it with defineTables`);
    return { name, target: table, pose: dimension.pose(table, { ...options, ...tables[name] } as O, `(table "${name}") `) };
  });
  return createBodies<W, Body, BodyDesc, ColliderDesc, Pose>(rapier, dimension.createWorld(rapier, options), parts, options.contacts, true) as TablesPhysicsOf<string, W, Body, BodyDesc, ColliderDesc, Pose>;
}

interface Part<W extends WorldApi, Body, Pose extends unknown[]> {
  readonly name: string;
  readonly target: EntityTarget;
  readonly pose: PoseCopy<W, Body, Pose>;
}

/**
 * Binds a Rapier world (made by the caller, for its dimension) to the parts' targets: a Physics of one target
 * (`tabled` false, one part), or of tables. Throws at set-up on contact options that do not fit.
 */
export function createBodies<W extends AnyWorld<Body, BodyDesc, ColliderDesc>, Body extends BodyApi, BodyDesc, ColliderDesc extends ColliderDescApi, Pose extends unknown[]>(
  rapier: RapierApi<W>,
  created: W,
  parts: readonly Part<W, Body, Pose>[],
  contactOptions: ContactOptions | undefined,
  tabled: boolean,
): PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose> | TablesPhysicsOf<string, W, Body, BodyDesc, ColliderDesc, Pose> {
  const routing = contactOptions === undefined ? null : contactRouting(contactOptions, tabled ? parts.map((p) => p.name) : null);
  let rapierWorld = created;
  const collisionEvents = rapier.ActiveEvents.COLLISION_EVENTS;
  const lookup = new Map<number, number>();
  // the colliders of bodies removed since the last drain (Rapier names them in the ends it reports next, when
  // they are gone): their body's set and steadyframe handle
  const removedSet = new Map<number, number>();
  const removedHandle = new Map<number, number>();
  const setCount = parts.length;
  let contacts: ContactCollector | null = null;

  const host: BodyHost<W, Body, ColliderDesc> = {
    get world() {
      return rapierWorld;
    },
    createCollider(desc, body, set) {
      if (contacts?.reports(set) === true) desc.setActiveEvents(desc.activeEvents | collisionEvents);
      rapierWorld.createCollider(desc, body);
    },
    lookup,
    sets: setCount,
    removing(body, set, index) {
      if (contacts === null) return;
      const handle = parts[set]!.target.handle?.(index) ?? -1;
      for (let c = 0, n = body.numColliders(); c < n; c++) {
        const collider = body.collider(c).handle;
        removedSet.set(collider, set);
        removedHandle.set(collider, handle);
      }
    },
  };
  const sets: BodySet<Body, BodyDesc, ColliderDesc, Pose>[] = parts.map((part, set) => createBodySet(host, set, part.target, part.pose));

  const sides: ContactSides = {
    setOf(bodyHandle) {
      const found = lookup.get(bodyHandle);
      return found === undefined ? -1 : found % setCount;
    },
    handleOf(set, bodyHandle) {
      const found = lookup.get(bodyHandle);
      return found === undefined ? -1 : (parts[set]!.target.handle?.((found - set) / setCount) ?? -1);
    },
    removedSetOf: (collider) => removedSet.get(collider) ?? -1,
    removedHandleOf: (collider) => removedHandle.get(collider) ?? -1,
    indexOf: (set, bodyHandle) => sets[set]!.indexOfBody(bodyHandle),
  };
  // autoDrain: Rapier empties the queue before each step, so a step whose contacts go unread leaves nothing
  if (contactOptions?.events === true) contacts = createContactCollector(new rapier.EventQueue(true), routing!, sides);

  const core: PhysicsCoreOf<W> = {
    get world() {
      return rapierWorld;
    },
    step(dt) {
      rapierWorld.timestep = dt;
      if (contacts === null) rapierWorld.step();
      else {
        contacts.clear();
        rapierWorld.step(contacts.queue);
        contacts.collect(rapierWorld);
        // the drain has named them: a body removed from here on is reported (its end) by the next step's
        removedSet.clear();
        removedHandle.clear();
      }
      core.publish();
    },
    emitContacts(tick) {
      return contacts === null ? 0 : contacts.emit(tick);
    },
    publish() {
      let copied = 0;
      for (let s = 0; s < setCount; s++) copied += sets[s]!.publish();
      return copied;
    },
    clear() {
      for (const set of sets) set.clear();
    },
    save() {
      const snapshot = rapierWorld.takeSnapshot();
      let length = 4 + 24 * removedSet.size + snapshot.byteLength;
      for (const set of sets) length += set.savedLength();
      const out = new Uint8Array(length);
      const view = new DataView(out.buffer);
      let at = 0;
      for (const set of sets) at = set.save(out, at);
      // the colliders removed since the last drain, whose ends the next step reports
      view.setUint32(at, removedSet.size, true);
      at += 4;
      for (const [collider, set] of removedSet) {
        view.setFloat64(at, collider, true);
        view.setFloat64(at + 8, set, true);
        view.setFloat64(at + 16, removedHandle.get(collider)!, true);
        at += 24;
      }
      out.set(snapshot, at);
      return out;
    },
    load(saved) {
      const view = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
      let at = 0;
      for (let s = 0; s < setCount; s++) {
        const end = sets[s]!.fits(saved, at);
        if (end < 0) {
          const n = saved.byteLength >= at + 4 ? view.getUint32(at, true) : -1;
          const where = tabled ? ` table "${parts[s]!.name}"` : ' world';
          throw new Error(`steadyframe: @steadyframe/rapier load(): the saved physics has ${n} bodies and the${where} ${sets[s]!.count} entities, or is cut short: load the state it was saved with`);
        }
        at = end;
      }
      const removed = saved.byteLength >= at + 4 ? view.getUint32(at, true) : -1;
      if (removed < 0 || saved.byteLength < at + 4 + 24 * removed) throw new Error('steadyframe: @steadyframe/rapier load(): the saved physics is cut short: load the bytes save() returned');
      const restored = rapier.World.restoreSnapshot(saved.subarray(at + 4 + 24 * removed));
      if (restored === null || restored === undefined) throw new Error('steadyframe: @steadyframe/rapier load(): Rapier could not read the saved world (another Rapier version, or damaged)');
      rapierWorld.free();
      rapierWorld = restored;
      contacts?.clear();
      lookup.clear();
      at = 0;
      for (const set of sets) at = set.load(saved, at);
      removedSet.clear();
      removedHandle.clear();
      for (let k = 0, from = at + 4; k < removed; k++, from += 24) {
        const collider = view.getFloat64(from, true);
        removedSet.set(collider, view.getFloat64(from + 8, true));
        removedHandle.set(collider, view.getFloat64(from + 16, true));
      }
    },
    dispose() {
      lookup.clear();
      removedSet.clear();
      removedHandle.clear();
      contacts?.free();
      rapierWorld.free();
    },
  };

  const { step, emitContacts, publish, clear, save, load, dispose } = core;
  if (!tabled) {
    const only = sets[0]!;
    const { add, remove, body, bodyHandle, indexOfBody, teleport } = only;
    const physics: PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose> = {
      get world() {
        return rapierWorld;
      },
      get count() {
        return only.count;
      },
      add, remove, body, bodyHandle, indexOfBody, teleport, step, emitContacts, publish, clear, save, load, dispose,
      handle: bodyHandle,
      indexOf: indexOfBody,
    };
    return physics;
  }
  const tableList = sets.map((set, s): TableBodiesOf<Body, BodyDesc, ColliderDesc, Pose> => {
    const { add, remove, body, bodyHandle, indexOfBody, teleport } = set;
    return Object.freeze({
      name: parts[s]!.name,
      get count() {
        return set.count;
      },
      add, remove, body, bodyHandle, indexOfBody, teleport,
      clear: set.clear,
    });
  });
  const physics: TablesPhysicsOf<string, W, Body, BodyDesc, ColliderDesc, Pose> = {
    get world() {
      return rapierWorld;
    },
    tables: Object.freeze(Object.fromEntries(tableList.map((table) => [table.name, table]))),
    tableOf(bodyHandle) {
      const found = lookup.get(bodyHandle);
      return found === undefined ? null : tableList[found % setCount]!;
    },
    step, emitContacts, publish, clear, save, load, dispose,
  };
  return physics;
}
