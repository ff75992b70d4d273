/**
 * A Phaser Group as the pool of an entity set: member i draws entity i, the group grows as the world does,
 * and members without a live entity go back to the pool (inactive and hidden), Phaser's pooling idiom. Given a
 * table, a member per entity of the table instead, kept by handle: it follows its entity through despawns.
 *
 * ```text
 *   update(frame):  members < frame.count ──▶ group.create() (or make(i)) until enough, or the group is full
 *                   members [0, count)     ──▶ pose from entity i, active and visible
 *                   members [count, ...)   ──▶ inactive and hidden (only those that were shown: idle pools cost nothing)
 *
 *   with a table:   gone handles ──▶ their members back to the pool, inactive and hidden
 *                   new handles  ──▶ a member from the pool (or made, as above), active
 *                   every handle ──▶ its member's pose from its entity's index in this frame
 * ```
 */
import type { Frame, Runtime, Schema, TableName } from 'steadyframe';
import { createTableObjects, type BindingTable } from 'steadyframe/adapter';
import { resolveBinding, type PoseFieldNames, type PoseFields, type TableSchema } from './fields.ts';
import { applyPose, applyPoses, PoseViews, type PoseTarget } from './pose.ts';

/** A pooled member: a display object that can also be set inactive (Phaser skips its `preUpdate` then). */
export interface PoolMember extends PoseTarget {
  active: boolean;
}

/** The parts of a `Phaser.GameObjects.Group` the binding uses. */
export interface PoolGroup<T extends PoolMember> {
  /** The members, in order (Phaser's live array: the binding reads it, never keeps it across updates). */
  getChildren(): T[];
  /** Makes a member of the group's `classType` with its `defaultKey` and `defaultFrame`; null when full. */
  create(x?: number, y?: number, key?: string, frame?: string | number, visible?: boolean, active?: boolean): T | null;
  add(child: T, addToScene?: boolean): unknown;
  isFull(): boolean;
}

/** Options of `bindGroup`. */
export interface GroupOptions<T extends PoolMember> {
  /**
   * Makes member `i` when the group needs one more: a game object the binding adds to the group (and to the
   * scene, unless it is on a display list already). Without it, `group.create()` makes one of the group's
   * `classType` (Sprite unless set) with its `defaultKey` and `defaultFrame`.
   */
  readonly make?: (i: number) => T;
  /**
   * The table whose entities the members draw (a name `defineTables` gave): a member per entity, by handle,
   * and the fields are the table's. Without it, member i draws entity i of the whole frame.
   */
  readonly table?: string;
}

/** What `bindGroup` returns. */
export interface GroupBinding<S extends Schema, T extends PoolMember = PoolMember> {
  readonly group: PoolGroup<T>;
  /**
   * Grows the group to `frame.count` members (unless it is full), sets members [0, count) from the frame's
   * entities, active and visible, and puts the rest back in the pool. Allocates only for members it makes.
   */
  update(frame: Frame<S>): void;
  /** Makes members until the group has `count` (or is full), hidden and inactive, so a later frame makes none. */
  reserve(count: number): void;
  /** Members made by the binding so far. */
  readonly made: number;
  /** Entities the last frame had beyond the members the group could hold (`maxSize`; not drawn). */
  readonly overflow: number;
}

/** What `bindGroup` returns given a table. */
export interface TableGroupBinding<S extends Schema, T extends PoolMember = PoolMember> extends GroupBinding<S, T> {
  /**
   * Follows the frame's table: members of entities gone go back to the pool (inactive and hidden), new
   * entities take one (from the pool, or made), and every member is set from its own entity. Allocates only
   * for members it makes.
   */
  update(frame: Frame<S>): void;
  /** The member drawing the entity with handle `handle`, as of the last `update` (undefined: none, or gone). */
  get(handle: number): T | undefined;
}

/** A table's entity as the pool holds it: its member, or null while the group is full. Reused. */
interface Held<T> {
  member: T | null;
}

const PREFIX = '@steadyframe/phaser:';

/**
 * Binds a group's members to the runtime's entities: member i draws entity i. The binding owns the group's
 * membership and its members' `active` and `visible`: add or remove members yourself and entities shift to
 * other members. Entities are dense (a despawn moves the last entity into the freed index), so members are
 * interchangeable: give them the same look, or set looks from a field yourself after `update`.
 *
 * ```ts
 * const balls = this.add.group({ defaultKey: 'ball', maxSize: 5000 });
 * const binding = bindGroup(runtime, balls, { position: 'position', angle: 'angle' });
 * attachToGame(this.game, runtime, (frame) => binding.update(frame));
 * ```
 *
 * Given `options.table` (a schema of `defineTables`), the group draws that table's entities alone, a member per
 * entity kept by handle: a new entity takes a member from the pool (made as above when none is free), keeps it
 * while despawns move it within the table, and gives it back when it goes. The group's members at set-up go
 * to the pool. An entity that finds the group full waits, undrawn (counted in `overflow`), for a member.
 *
 * ```ts
 * const rocks = bindGroup(runtime, this.add.group({ defaultKey: 'rock' }), { position: 'position' }, { table: 'rocks' });
 * ```
 *
 * Throws at set-up if a field does not fit (see `PoseFields`), or the table is not one of the schema's.
 */
export function bindGroup<S extends Schema, const N extends TableName<S>, T extends PoolMember = PoolMember>(
  runtime: Pick<Runtime<S>, 'schema'>,
  group: PoolGroup<T>,
  fields: PoseFields<TableSchema<S, N>>,
  options: GroupOptions<T> & { readonly table: N },
): TableGroupBinding<S, T>;
export function bindGroup<S extends Schema, T extends PoolMember = PoolMember>(
  runtime: Pick<Runtime<S>, 'schema'>,
  group: PoolGroup<T>,
  fields: PoseFields<S>,
  options?: GroupOptions<T> & { readonly table?: undefined },
): GroupBinding<S, T>;
export function bindGroup<S extends Schema, T extends PoolMember = PoolMember>(
  runtime: Pick<Runtime<S>, 'schema'>,
  group: PoolGroup<T>,
  fields: PoseFieldNames,
  options: GroupOptions<T> = {},
): GroupBinding<S, T> | TableGroupBinding<S, T> {
  if (group === null || typeof group !== 'object' || typeof group.getChildren !== 'function' || typeof group.create !== 'function') {
    throw new TypeError(`${PREFIX} bindGroup takes a Phaser Group (this.add.group(...))`);
  }
  const make = options.make;
  if (make !== undefined && typeof make !== 'function') throw new TypeError(`${PREFIX} options.make must be a function (i) => GameObject`);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options.table, 'bindGroup');
  const pose = new PoseViews(resolved);
  let made = 0;

  /** Makes one member, hidden and inactive (`make(i)` or `group.create()`); null when the group is full. */
  const makeOne = (): T | null => {
    if (group.isFull()) return null;
    const i = group.getChildren().length;
    let member: T | null;
    if (make !== undefined) {
      member = make(i);
      if (member === null || typeof member !== 'object') throw new TypeError(`${PREFIX} options.make(${i}) must return a game object, not ${String(member)}`);
      const onList = (member as { displayList?: unknown }).displayList;
      group.add(member, onList === null || onList === undefined);
    } else {
      member = group.create(0, 0, undefined, undefined, false, false);
    }
    if (member === null) return null;
    member.visible = false;
    member.active = false;
    made++;
    if (group.getChildren().length === i) throw new Error(`${PREFIX} bindGroup made a member but the group did not grow (does make return one object per call?)`);
    return member;
  };
  const checkReserve = (count: number): void => {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`${PREFIX} reserve(count) takes a whole number >= 0, not ${count}`);
  };
  if (table !== null) return bindTableGroup(group, table, pose, makeOne, checkReserve, () => made);

  let overflow = 0;
  /** Members [0, shown) were active and visible after the last update. */
  let shown = 0;
  const grow = (count: number): T[] => {
    let members = group.getChildren();
    while (members.length < count && makeOne() !== null) members = group.getChildren();
    return members;
  };

  return {
    group,
    get made() {
      return made;
    },
    get overflow() {
      return overflow;
    },
    reserve(count) {
      checkReserve(count);
      grow(count);
    },
    update(frame) {
      const members = grow(frame.count);
      const count = Math.min(frame.count, members.length);
      overflow = frame.count - count;
      pose.read(frame.fields as { readonly [name: string]: Float32Array });
      applyPoses(members, pose, count);
      for (let i = Math.min(shown, count); i < count; i++) members[i]!.active = true;
      for (let i = count; i < Math.min(shown, members.length); i++) {
        const m = members[i]!;
        m.active = false;
        m.visible = false;
      }
      shown = count;
    },
  };
}

/** `bindGroup` given a table: a member per entity of the table, by handle (`createTableObjects`). */
function bindTableGroup<S extends Schema, T extends PoolMember>(
  group: PoolGroup<T>,
  table: BindingTable,
  pose: PoseViews,
  makeOne: () => T | null,
  checkReserve: (count: number) => void,
  made: () => number,
): TableGroupBinding<S, T> {
  /** Members drawing no entity, inactive and hidden: the group's own at set-up, then those given back. */
  const free: T[] = [];
  for (const member of group.getChildren()) {
    member.active = false;
    member.visible = false;
    free.push(member);
  }
  free.reverse(); // the group's first member is taken first
  /** Holders of entities gone, for the next new one: at most the table's capacity ever made. */
  const spare: Held<T>[] = [];
  const take = (): T | null => {
    const member = free.pop() ?? makeOne();
    if (member !== null) member.active = true; // made visible by its first pose
    return member;
  };
  let missing = 0;
  const entities = createTableObjects<S, Held<T>>(table, {
    read: (shown) => pose.read(shown.fields),
    create() {
      const held = spare.pop() ?? { member: null };
      held.member = take();
      return held;
    },
    update(held, index) {
      // an entity that found the group full takes a member as soon as one is free
      const member = held.member ?? (held.member = take());
      if (member === null) missing++;
      else applyPose(member, pose, index);
    },
    release(held) {
      const member = held.member;
      if (member !== null) {
        member.active = false;
        member.visible = false;
        free.push(member);
      }
      held.member = null;
      spare.push(held);
    },
  });
  let overflow = 0;
  return {
    group,
    get made() {
      return made();
    },
    get overflow() {
      return overflow;
    },
    reserve(count) {
      checkReserve(count);
      while (group.getChildren().length < count) {
        const member = makeOne();
        if (member === null) break;
        free.push(member);
      }
    },
    update(frame) {
      missing = 0;
      entities.update(frame);
      overflow = missing;
    },
    get(handle) {
      return entities.get(handle)?.member ?? undefined;
    },
  };
}
