/**
 * The glue between one Rapier world and one set of steadyframe entities (a `World`, or a table of one: an
 * `EntityTarget`), for both of Rapier's builds: entity i is rigid body `handles[i]`. Only the pose copy differs
 * between 2D and 3D (`PoseCopy`, given by `physics.ts` and `physics-2d.ts`); everything here is shared.
 *
 *   entity index   0        1        2     ...  count - 1
 *   handles        h(b7)    h(b2)    h(b9)      h(b4)        Float64Array: Rapier's flat handles
 *   state          AWAKE    0        FIXED      0            Uint8Array: awake after the last copy; fixed
 *   fields         the pose fields (3D: position 3, rotation 4; 2D: position 2, angle 1), the target's views
 *
 * Despawn swaps the last entity into the hole, in the target's fields (target.despawn) and in these arrays
 * alike, so index i always names the same body in both. Spawn, despawn and teleport give the entity a new
 * generation (target.spawn / despawn / snap), so the renderer snaps it instead of streaking.
 *
 * The copy pass (`publish`, run after each Rapier step) reads each body through the raw rigid-body set
 * (`rbTranslation(handle, scratch)`), not `body.translation()`, which allocates a Vector each call: see the
 * package README for the measured options. Sleeping and fixed bodies are skipped, their values already in
 * the fields (written when they were added, teleported, or last awake).
 */
import { checkContactOptions, createContactCollector, type ContactCollector, type ContactEmitter, type ContactOptions } from './contact-events.ts';
import type { EntityTarget } from './entity-target.ts';
import type { BodyApi, ColliderDescApi, RapierApi, WorldApi } from './rapier-api.ts';

/**
 * What a Physics is, in either dimension: `W` the Rapier world of the build, `Body` its rigid body, `BodyDesc`
 * and `ColliderDesc` its descriptions, `Pose` a teleport's arguments after the index.
 */
export interface PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose extends unknown[]> {
  /** The Rapier world. Create joints, query it, read events; add and remove bodies through `add`/`remove`. */
  readonly world: W;
  /** Live bodies: the target's `count` (the steadyframe world's, by default). */
  readonly count: number;
  /**
   * Creates a rigid body (and its colliders) as entity `count`, writes its pose into the fields and returns the
   * entity index; -1, creating nothing, when the target is full. The entity snaps this tick.
   */
  add(body: BodyDesc, colliders?: ColliderDesc | readonly ColliderDesc[]): number;
  /**
   * Removes entity `index`'s body from Rapier and the entity from the target: the last entity moves into
   * `index` (target.despawn) and so does its body. Returns the index that moved, or -1 (none moved, or out of
   * range).
   */
  remove(index: number): number;
  /** Entity `index`'s rigid body (Rapier keeps one wrapper per body: this allocates nothing). */
  body(index: number): Body;
  /** Entity `index`'s Rapier handle. */
  handle(index: number): number;
  /** The entity of a Rapier body handle (from a collision event, a ray cast), or -1. */
  indexOf(handle: number): number;
  /** Moves entity `index`'s body to a pose, wakes it and marks the entity to snap (target.snap): no streak. */
  teleport(index: number, ...pose: Pose): void;
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
   * fields; fixed bodies are copied by `add` and `teleport` only (a fixed body moved otherwise, or turned
   * dynamic with `setBodyType`, needs a `teleport` to show it). Allocates nothing. Returns how many bodies it
   * copied.
   */
  publish(): number;
  /** Removes every body (the target's count becomes 0). */
  clear(): void;
  /**
   * The Rapier world (`takeSnapshot`) and which body each entity is, as bytes: a simulation's `save()` (a
   * `runtime.snapshot()`, a recording started mid-session). Use Rapier's deterministic build for a snapshot
   * that steps on alike elsewhere.
   */
  save(): Uint8Array;
  /**
   * Puts back what `save` returned (`World.restoreSnapshot`; the target already loaded, with the same count):
   * a new Rapier world in place of this one, so bodies and colliders taken from `physics.world` before are
   * stale. Throws if the bytes do not fit.
   */
  load(saved: Uint8Array): void;
  /** Frees the Rapier world. */
  dispose(): void;
}

/** The one part that differs between 2D and 3D: reading a body's pose into the fields, and setting one. */
export interface PoseCopy<W extends WorldApi, Body, Pose extends unknown[]> {
  /** Copies body `handle`'s pose into entity `i`'s fields, through the raw set (`world.bodies.raw`). */
  copy(raw: W['bodies']['raw'], i: number, handle: number): void;
  /** Sets `body`'s pose from a teleport's arguments, waking it. */
  set(body: Body, pose: Pose): void;
}

/** Per-entity state bits. */
const AWAKE = 1;
const FIXED = 2;

/**
 * Entity `name`'s view of `width` floats per entity in `target`, or a set-up error naming the fix. `what`
 * says what goes in it; `hint` where such a field comes from.
 */
export function poseField(target: EntityTarget, name: string, width: number, what: string, hint: string): Float32Array {
  const view = (target.fields as { readonly [name: string]: Float32Array | undefined })[name];
  if (view === undefined || view.length !== width * target.capacity) throw new Error(`steadyframe: @steadyframe/rapier needs ${what} "${name}" of width ${width} ${hint}`);
  return view;
}

/**
 * Binds a Rapier world (made by the caller, for its dimension) to `target`'s entities. Throws at set-up on
 * contact options that do not fit.
 */
export function createBodies<W extends WorldApi<Body, BodyDesc, ColliderDesc>, Body extends BodyApi, BodyDesc, ColliderDesc extends ColliderDescApi, Pose extends unknown[]>(
  rapier: RapierApi<W>,
  created: W,
  target: EntityTarget,
  pose: PoseCopy<W, Body, Pose>,
  contactOptions: ContactOptions | undefined,
): PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose> {
  if (contactOptions !== undefined) checkContactOptions(contactOptions);
  let rapierWorld = created;
  const capacity = target.capacity;
  // autoDrain: Rapier empties the queue before each step, so a step whose contacts go unread leaves nothing
  const contacts: ContactCollector | null = contactOptions?.events === true ? createContactCollector(new rapier.EventQueue(true), contactOptions) : null;
  const collisionEvents = rapier.ActiveEvents.COLLISION_EVENTS;
  /** The collider of `desc`, made to report its collisions when contact events are on. */
  const createCollider = (desc: ColliderDesc, body: Body): void => {
    if (contacts !== null) desc.setActiveEvents(desc.activeEvents | collisionEvents);
    rapierWorld.createCollider(desc, body);
  };
  const handles = new Float64Array(capacity);
  const state = new Uint8Array(capacity);
  // handle -> entity, for events and queries; touched on add/remove only, never by the copy pass
  const entityOf = new Map<number, number>();

  const entityIndexOf = (handle: number): number => entityOf.get(handle) ?? -1;

  const checkIndex = (index: number, what: string): void => {
    if (!Number.isInteger(index) || index < 0 || index >= target.count) {
      throw new RangeError(`steadyframe: ${what}(${String(index)}) needs a live entity index, 0 to count - 1 (${target.count - 1})`);
    }
  };

  const physics: PhysicsOf<W, Body, BodyDesc, ColliderDesc, Pose> = {
    get world() {
      return rapierWorld;
    },
    get count() {
      return target.count;
    },
    add(desc, colliders) {
      const index = target.spawn();
      if (index < 0) return -1;
      const body = rapierWorld.createRigidBody(desc);
      if (colliders !== undefined) {
        if (Array.isArray(colliders)) for (const c of colliders as readonly ColliderDesc[]) createCollider(c, body);
        else createCollider(colliders as ColliderDesc, body);
      }
      handles[index] = body.handle;
      entityOf.set(body.handle, index);
      pose.copy(rapierWorld.bodies.raw, index, body.handle);
      // a fixed body only moves by teleport (which copies it): the copy pass need not even ask about it
      state[index] = body.isFixed() ? FIXED : AWAKE;
      return index;
    },
    remove(index) {
      if (!Number.isInteger(index) || index < 0 || index >= target.count) return -1;
      const handle = handles[index]!;
      rapierWorld.removeRigidBody(rapierWorld.getRigidBody(handle));
      entityOf.delete(handle);
      // the target moves the last entity's fields into `index` and gives it a new generation; follow it here
      const moved = target.despawn(index);
      if (moved >= 0) {
        handles[index] = handles[moved]!;
        state[index] = state[moved]!;
        entityOf.set(handles[index]!, index);
      }
      return moved;
    },
    body(index) {
      checkIndex(index, 'body');
      return rapierWorld.getRigidBody(handles[index]!);
    },
    handle(index) {
      checkIndex(index, 'handle');
      return handles[index]!;
    },
    indexOf: entityIndexOf,
    teleport(index, ...to) {
      checkIndex(index, 'teleport');
      pose.set(rapierWorld.getRigidBody(handles[index]!), to);
      pose.copy(rapierWorld.bodies.raw, index, handles[index]!);
      // a fixed body stays out of the copy pass: this copy is the one it needs
      if (state[index] !== FIXED) state[index] = AWAKE;
      target.snap(index);
    },
    step(dt) {
      rapierWorld.timestep = dt;
      if (contacts === null) rapierWorld.step();
      else {
        contacts.clear();
        rapierWorld.step(contacts.queue);
        contacts.collect(rapierWorld);
      }
      physics.publish();
    },
    emitContacts(tick) {
      return contacts === null ? 0 : contacts.emit(tick, entityIndexOf);
    },
    publish() {
      const raw = rapierWorld.bodies.raw;
      const n = target.count;
      let copied = 0;
      for (let i = 0; i < n; i++) {
        const s = state[i]!;
        if (s === FIXED) continue;
        const handle = handles[i]!;
        // a sleeping body does not move: its values are already in the fields, unless it fell asleep during
        // the step just taken (AWAKE still set), which may have moved it
        const sleeping = raw.rbIsSleeping(handle);
        if (sleeping && s === 0) continue;
        state[i] = sleeping ? 0 : AWAKE;
        pose.copy(raw, i, handle);
        copied++;
      }
      return copied;
    },
    clear() {
      while (target.count > 0) physics.remove(target.count - 1);
    },
    save() {
      // count u32, then each entity's handle (f64) and state (u8), then Rapier's snapshot
      const n = target.count;
      const snapshot = rapierWorld.takeSnapshot();
      const out = new Uint8Array(4 + 9 * n + snapshot.byteLength);
      const view = new DataView(out.buffer);
      view.setUint32(0, n, true);
      for (let i = 0; i < n; i++) view.setFloat64(4 + 8 * i, handles[i]!, true);
      out.set(state.subarray(0, n), 4 + 8 * n);
      out.set(snapshot, 4 + 9 * n);
      return out;
    },
    load(saved) {
      const view = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
      const n = saved.byteLength >= 4 ? view.getUint32(0, true) : -1;
      if (n !== target.count || saved.byteLength < 4 + 9 * n) {
        throw new Error(`steadyframe: @steadyframe/rapier load(): the saved physics has ${n} bodies and the world ${target.count} entities, or is cut short: load the state it was saved with`);
      }
      const restored = rapier.World.restoreSnapshot(saved.subarray(4 + 9 * n));
      if (restored === null || restored === undefined) throw new Error('steadyframe: @steadyframe/rapier load(): Rapier could not read the saved world (another Rapier version, or damaged)');
      rapierWorld.free();
      rapierWorld = restored;
      contacts?.clear();
      entityOf.clear();
      for (let i = 0; i < n; i++) {
        handles[i] = view.getFloat64(4 + 8 * i, true);
        state[i] = saved[4 + 8 * n + i]!;
        entityOf.set(handles[i]!, i);
      }
    },
    dispose() {
      entityOf.clear();
      contacts?.free();
      rapierWorld.free();
    },
  };
  return physics;
}
