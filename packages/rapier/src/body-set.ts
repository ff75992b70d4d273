/**
 * One target's bodies (a `World`, or one table): entity i of the target is rigid body `handles[i]` of the
 * Physics' one Rapier world. A Physics has one set (`createPhysics(RAPIER, world)`) or one per table
 * (`{ tables }`); the sets share the Rapier world and one lookup from body handle to (set, entity).
 *
 *   entity index   0        1        2     ...  count - 1
 *   handles        h(b7)    h(b2)    h(b9)      h(b4)        Float64Array: Rapier's flat body handles
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
import type { EntityTarget } from './entity-target.ts';
import type { BodyApi, WorldApi } from './rapier-api.ts';

/** One target's bodies, as a Physics (or `physics.tables.x`) hands them out. */
export interface BodiesOf<Body, BodyDesc, ColliderDesc, Pose extends unknown[]> {
  /** Live bodies: the target's `count`. */
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
  /** Entity `index`'s Rapier body handle (`body.handle`; not the entity's steadyframe handle, `table.handle(i)`). */
  bodyHandle(index: number): number;
  /** The entity of a Rapier body handle (from a collision event, a ray cast: `collider.parent().handle`), or -1. */
  indexOfBody(bodyHandle: number): number;
  /** Moves entity `index`'s body to a pose, wakes it and marks the entity to snap (target.snap): no streak. */
  teleport(index: number, ...pose: Pose): void;
  /** Removes every body of this target (its count becomes 0). */
  clear(): void;
}

/** The one part that differs between 2D and 3D: reading a body's pose into a target's fields, and setting one. */
export interface PoseCopy<W extends WorldApi, Body, Pose extends unknown[]> {
  /** Copies body `handle`'s pose into entity `i`'s fields, through the raw set (`world.bodies.raw`). */
  copy(raw: W['bodies']['raw'], i: number, handle: number): void;
  /** Sets `body`'s pose from a teleport's arguments, waking it. */
  set(body: Body, pose: Pose): void;
}

/** What a set needs of the Physics around it. */
export interface BodyHost<W, Body, ColliderDesc> {
  /** The Rapier world now (`load` puts in another). */
  readonly world: W;
  /** Creates a collider on `body` (contact events switched on for it, when this set reports them). */
  createCollider(desc: ColliderDesc, body: Body, set: number): void;
  /** Body handle -> `set + sets * index`: one lookup for every set, touched on add and remove only. */
  readonly lookup: Map<number, number>;
  /** How many sets share the lookup. */
  readonly sets: number;
  /** A body is about to go (its entity not moved yet): contacts may still name its colliders. */
  removing(body: Body, set: number, index: number): void;
}

/** A set as the Physics drives it: its bodies, and the copy pass and save/load of its part. */
export interface BodySet<Body extends BodyApi, BodyDesc, ColliderDesc, Pose extends unknown[]> extends BodiesOf<Body, BodyDesc, ColliderDesc, Pose> {
  readonly target: EntityTarget;
  /** The copy pass over this set: returns how many bodies it copied. */
  publish(): number;
  /** Bytes this set's part of a save takes. */
  savedLength(): number;
  /** Writes this set's part at `at` (count u32, each entity's body handle f64, each state u8); returns the end. */
  save(out: Uint8Array, at: number): number;
  /** Checks a saved part at `at` fits the target now; returns its end, or -1. */
  fits(saved: Uint8Array, at: number): number;
  /** Reads a part that `fits` (the lookup already cleared); returns its end. */
  load(saved: Uint8Array, at: number): number;
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

/** Set number `set` of the host's, over `target`, its poses copied by `pose`. */
export function createBodySet<W extends WorldApi<Body, BodyDesc, ColliderDesc>, Body extends BodyApi, BodyDesc, ColliderDesc, Pose extends unknown[]>(
  host: BodyHost<W, Body, ColliderDesc>,
  set: number,
  target: EntityTarget,
  pose: PoseCopy<W, Body, Pose>,
): BodySet<Body, BodyDesc, ColliderDesc, Pose> {
  const capacity = target.capacity;
  const handles = new Float64Array(capacity);
  const state = new Uint8Array(capacity);
  const { lookup, sets } = host;
  const at = (index: number): number => set + sets * index;

  const checkIndex = (index: number, what: string): void => {
    if (!Number.isInteger(index) || index < 0 || index >= target.count) {
      throw new RangeError(`steadyframe: ${what}(${String(index)}) needs a live entity index, 0 to count - 1 (${target.count - 1})`);
    }
  };

  const bodies: BodySet<Body, BodyDesc, ColliderDesc, Pose> = {
    target,
    get count() {
      return target.count;
    },
    add(desc, colliders) {
      const index = target.spawn();
      if (index < 0) return -1;
      const world = host.world;
      const body = world.createRigidBody(desc);
      if (colliders !== undefined) {
        if (Array.isArray(colliders)) for (const c of colliders as readonly ColliderDesc[]) host.createCollider(c, body, set);
        else host.createCollider(colliders as ColliderDesc, body, set);
      }
      handles[index] = body.handle;
      lookup.set(body.handle, at(index));
      pose.copy(world.bodies.raw, index, body.handle);
      // a fixed body only moves by teleport (which copies it): the copy pass need not even ask about it
      state[index] = body.isFixed() ? FIXED : AWAKE;
      return index;
    },
    remove(index) {
      if (!Number.isInteger(index) || index < 0 || index >= target.count) return -1;
      const handle = handles[index]!;
      const body = host.world.getRigidBody(handle);
      host.removing(body, set, index);
      host.world.removeRigidBody(body);
      lookup.delete(handle);
      // the target moves the last entity's fields into `index` and gives it a new generation; follow it here
      const moved = target.despawn(index);
      if (moved >= 0) {
        handles[index] = handles[moved]!;
        state[index] = state[moved]!;
        lookup.set(handles[index]!, at(index));
      }
      return moved;
    },
    body(index) {
      checkIndex(index, 'body');
      return host.world.getRigidBody(handles[index]!);
    },
    bodyHandle(index) {
      checkIndex(index, 'bodyHandle');
      return handles[index]!;
    },
    indexOfBody(bodyHandle) {
      const found = lookup.get(bodyHandle);
      return found === undefined || found % sets !== set ? -1 : (found - set) / sets;
    },
    teleport(index, ...to) {
      checkIndex(index, 'teleport');
      const world = host.world;
      pose.set(world.getRigidBody(handles[index]!), to);
      pose.copy(world.bodies.raw, index, handles[index]!);
      // a fixed body stays out of the copy pass: this copy is the one it needs
      if (state[index] !== FIXED) state[index] = AWAKE;
      target.snap(index);
    },
    clear() {
      while (target.count > 0) bodies.remove(target.count - 1);
    },
    publish() {
      const raw = host.world.bodies.raw;
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
    savedLength: () => 4 + 9 * target.count,
    save(out, start) {
      const n = target.count;
      const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
      view.setUint32(start, n, true);
      for (let i = 0; i < n; i++) view.setFloat64(start + 4 + 8 * i, handles[i]!, true);
      out.set(state.subarray(0, n), start + 4 + 8 * n);
      return start + 4 + 9 * n;
    },
    fits(saved, start) {
      if (saved.byteLength < start + 4) return -1;
      const n = new DataView(saved.buffer, saved.byteOffset, saved.byteLength).getUint32(start, true);
      return n === target.count && saved.byteLength >= start + 4 + 9 * n ? start + 4 + 9 * n : -1;
    },
    load(saved, start) {
      const view = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
      const n = view.getUint32(start, true);
      for (let i = 0; i < n; i++) {
        handles[i] = view.getFloat64(start + 4 + 8 * i, true);
        state[i] = saved[start + 4 + 8 * n + i]!;
        lookup.set(handles[i]!, at(i));
      }
      return start + 4 + 9 * n;
    },
  };
  return bodies;
}
