/**
 * The glue between one Rapier world and one steadyframe world: entity i is rigid body `handles[i]`.
 *
 *   entity index   0        1        2     ...  count - 1
 *   handles        h(b7)    h(b2)    h(b9)      h(b4)        Float64Array: Rapier's flat handles
 *   state          AWAKE    0        FIXED      0            Uint8Array: awake after the last copy; fixed
 *   fields         position 3 x f32, rotation 4 x f32        the schema's views (world.fields)
 *
 * Despawn swaps the last entity into the hole, in the world's fields (world.despawn) and in these arrays
 * alike, so index i always names the same body in both. Spawn, despawn and teleport give the entity a new
 * generation (world.spawn / despawn / snap), so the renderer snaps it instead of streaking.
 *
 * The copy pass (`publish`, run after each Rapier step) reads each body through the raw rigid-body set
 * (`rbTranslation(handle, scratch)`), not `body.translation()`, which allocates a Vector each call: see the
 * package README for the measured options. Sleeping and fixed bodies are skipped, their values already in
 * the world (written when they were added, teleported, or last awake).
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import type { ColliderDesc, RigidBody, RigidBodyDesc, World as RapierWorld } from '@dimforge/rapier3d-compat';
import type { Schema, World } from 'steadyframe/worker';
import { checkContactOptions, createContactCollector, type ContactCollector, type ContactEmitter, type ContactOptions } from './contact-events.ts';

/** The Rapier module after `await RAPIER.init()` (the compat build's default export). */
export type Rapier = typeof RAPIER;

export interface PhysicsOptions {
  /** Gravity in world units per second squared. Default { x: 0, y: -9.81, z: 0 }. */
  readonly gravity?: { x: number; y: number; z: number };
  /** The schema field that takes translations: linear, width 3. Default 'position'. */
  readonly position?: string;
  /** The schema field that takes rotations: quaternion, width 4 (x, y, z, w). Default 'rotation'. */
  readonly rotation?: string;
  /**
   * `{ events: true }`: each contact start and end between an entity's collider and another collider becomes an
   * event of the tick it happened in (codes CONTACT_START and CONTACT_END; payload the two entity indices and,
   * for a start, its impulse). Off by default: Rapier then reports no collisions and nothing is drained.
   */
  readonly contacts?: ContactOptions;
}

export interface Physics {
  /** The Rapier world. Create joints, query it, read events; add and remove bodies through `add`/`remove`. */
  readonly world: RapierWorld;
  /** Live bodies: the steadyframe world's `count`. */
  readonly count: number;
  /**
   * Creates a rigid body (and its colliders) as entity `count`, writes its pose into the fields and returns the
   * entity index; -1, creating nothing, when the steadyframe world is full. The entity snaps this tick.
   */
  add(body: RigidBodyDesc, colliders?: ColliderDesc | readonly ColliderDesc[]): number;
  /**
   * Removes entity `index`'s body from Rapier and the entity from the world: the last entity moves into `index`
   * (world.despawn) and so does its body. Returns the index that moved, or -1 (none moved, or out of range).
   */
  remove(index: number): number;
  /** Entity `index`'s rigid body (Rapier keeps one wrapper per body: this allocates nothing). */
  body(index: number): RigidBody;
  /** Entity `index`'s Rapier handle. */
  handle(index: number): number;
  /** The entity of a Rapier body handle (from a collision event, a ray cast), or -1. */
  indexOf(handle: number): number;
  /** Moves entity `index`'s body to a pose, wakes it and marks the entity to snap (world.snap): no streak. */
  teleport(index: number, x: number, y: number, z: number, qx?: number, qy?: number, qz?: number, qw?: number): void;
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
   * Copies the translation and rotation of every awake body (and of every body that fell asleep since the last
   * copy) into the fields; fixed bodies are copied by `add` and `teleport` only (a fixed body moved otherwise,
   * or turned dynamic with `setBodyType`, needs a `teleport` to show it). Allocates nothing. Returns how many
   * bodies it copied.
   */
  publish(): number;
  /** Removes every body (the world's count becomes 0). */
  clear(): void;
  /**
   * The Rapier world (`takeSnapshot`) and which body each entity is, as bytes: a simulation's `save()` (a
   * `runtime.snapshot()`, a recording started mid-session). Use Rapier's deterministic build for a snapshot
   * that steps on alike elsewhere.
   */
  save(): Uint8Array;
  /**
   * Puts back what `save` returned (`World.restoreSnapshot`; the steadyframe world already loaded, with the same
   * count): a new Rapier world in place of this one, so bodies and colliders taken from `physics.world` before
   * are stale. Throws if the bytes do not fit.
   */
  load(saved: Uint8Array): void;
  /** Frees the Rapier world. */
  dispose(): void;
}

/** Per-entity state bits. */
const AWAKE = 1;
const FIXED = 2;

const DEFAULT_GRAVITY = { x: 0, y: -9.81, z: 0 };

/**
 * Binds a new Rapier world to a steadyframe world (call it in `init`, after `await RAPIER.init()`). Throws at
 * set-up, naming the fix, when the schema has no fitting position or rotation field.
 */
export function createPhysics<S extends Schema>(rapier: Rapier, world: World<S>, options: PhysicsOptions = {}): Physics {
  const positionName = options.position ?? 'position';
  const rotationName = options.rotation ?? 'rotation';
  const fields = world.fields as Record<string, Float32Array | undefined>;
  const position = fields[positionName];
  const rotation = fields[rotationName];
  const capacity = world.capacity;
  if (position === undefined || position.length !== 3 * capacity) {
    throw new Error(`steadyframe: @steadyframe/rapier needs a linear schema field "${positionName}" of width 3 for translations (schema3d has one); pass { position: 'yourField' }`);
  }
  if (rotation === undefined || rotation.length !== 4 * capacity) {
    throw new Error(`steadyframe: @steadyframe/rapier needs a quaternion schema field "${rotationName}" of width 4 for rotations (schema3d has one); pass { rotation: 'yourField' }`);
  }
  if (options.contacts !== undefined) checkContactOptions(options.contacts);
  const g = options.gravity ?? DEFAULT_GRAVITY;
  let rapierWorld = new rapier.World({ x: g.x, y: g.y, z: g.z });
  // autoDrain: Rapier empties the queue before each step, so a step whose contacts go unread leaves nothing
  const contacts: ContactCollector | null = options.contacts?.events === true ? createContactCollector(new rapier.EventQueue(true), options.contacts) : null;
  const collisionEvents = rapier.ActiveEvents.COLLISION_EVENTS;
  /** The collider of `desc`, made to report its collisions when contact events are on. */
  const createCollider = (desc: ColliderDesc, body: RigidBody): void => {
    if (contacts !== null) desc.setActiveEvents(desc.activeEvents | collisionEvents);
    rapierWorld.createCollider(desc, body);
  };
  const handles = new Float64Array(capacity);
  const state = new Uint8Array(capacity);
  // handle -> entity, for events and queries; touched on add/remove only, never by the copy pass
  const entityOf = new Map<number, number>();
  // Rapier's raw calls write a body's vector or quaternion into the first floats of this buffer
  const scratch = new Float32Array(4);

  /** Copies entity i's pose from Rapier into the fields. */
  const copy = (raw: RapierWorld['bodies']['raw'], i: number, handle: number): void => {
    raw.rbTranslation(handle, scratch);
    position[3 * i] = scratch[0]!;
    position[3 * i + 1] = scratch[1]!;
    position[3 * i + 2] = scratch[2]!;
    raw.rbRotation(handle, scratch);
    rotation[4 * i] = scratch[0]!;
    rotation[4 * i + 1] = scratch[1]!;
    rotation[4 * i + 2] = scratch[2]!;
    rotation[4 * i + 3] = scratch[3]!;
  };

  const entityIndexOf = (handle: number): number => entityOf.get(handle) ?? -1;

  const checkIndex = (index: number, what: string): void => {
    if (!Number.isInteger(index) || index < 0 || index >= world.count) {
      throw new RangeError(`steadyframe: ${what}(${String(index)}) needs a live entity index, 0 to count - 1 (${world.count - 1})`);
    }
  };

  const physics: Physics = {
    get world() {
      return rapierWorld;
    },
    get count() {
      return world.count;
    },
    add(desc, colliders) {
      const index = world.spawn();
      if (index < 0) return -1;
      const body = rapierWorld.createRigidBody(desc);
      if (colliders !== undefined) {
        if (Array.isArray(colliders)) for (const c of colliders as readonly ColliderDesc[]) createCollider(c, body);
        else createCollider(colliders as ColliderDesc, body);
      }
      handles[index] = body.handle;
      entityOf.set(body.handle, index);
      copy(rapierWorld.bodies.raw, index, body.handle);
      // a fixed body only moves by teleport (which copies it): the copy pass need not even ask about it
      state[index] = body.isFixed() ? FIXED : AWAKE;
      return index;
    },
    remove(index) {
      if (!Number.isInteger(index) || index < 0 || index >= world.count) return -1;
      const handle = handles[index]!;
      rapierWorld.removeRigidBody(rapierWorld.getRigidBody(handle));
      entityOf.delete(handle);
      // the world moves the last entity's fields into `index` and gives it a new generation; follow it here
      const moved = world.despawn(index);
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
    indexOf(handle) {
      return entityOf.get(handle) ?? -1;
    },
    teleport(index, x, y, z, qx, qy, qz, qw) {
      checkIndex(index, 'teleport');
      const body = rapierWorld.getRigidBody(handles[index]!);
      body.setTranslation({ x, y, z }, true);
      if (qx !== undefined && qy !== undefined && qz !== undefined && qw !== undefined) body.setRotation({ x: qx, y: qy, z: qz, w: qw }, true);
      copy(rapierWorld.bodies.raw, index, handles[index]!);
      // a fixed body stays out of the copy pass: this copy is the one it needs
      if (state[index] !== FIXED) state[index] = AWAKE;
      world.snap(index);
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
      const n = world.count;
      let copied = 0;
      for (let i = 0; i < n; i++) {
        const s = state[i]!;
        if (s === FIXED) continue;
        const handle = handles[i]!;
        // a sleeping body does not move: its values are already in the world, unless it fell asleep during
        // the step just taken (AWAKE still set), which may have moved it
        const sleeping = raw.rbIsSleeping(handle);
        if (sleeping && s === 0) continue;
        state[i] = sleeping ? 0 : AWAKE;
        copy(raw, i, handle);
        copied++;
      }
      return copied;
    },
    clear() {
      while (world.count > 0) physics.remove(world.count - 1);
    },
    save() {
      // count u32, then each entity's handle (f64) and state (u8), then Rapier's snapshot
      const n = world.count;
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
      if (n !== world.count || saved.byteLength < 4 + 9 * n) {
        throw new Error(`steadyframe: @steadyframe/rapier load(): the saved physics has ${n} bodies and the world ${world.count} entities, or is cut short: load the state it was saved with`);
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
