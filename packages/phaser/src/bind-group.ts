/**
 * A Phaser Group as the pool of an entity set: member i draws entity i, the group grows as the world does,
 * and members without a live entity go back to the pool (inactive and hidden), Phaser's pooling idiom.
 *
 * ```text
 *   update(frame):  members < frame.count ──▶ group.create() (or make(i)) until enough, or the group is full
 *                   members [0, count)     ──▶ pose from entity i, active and visible
 *                   members [count, ...)   ──▶ inactive and hidden (only those that were shown: idle pools cost nothing)
 * ```
 */
import type { Frame, Runtime, Schema } from 'steadyframe';
import { resolveFields, type PoseFields } from './fields.ts';
import { applyPose, type PoseTarget } from './pose.ts';

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
 * Throws at set-up if a field does not fit (see `PoseFields`).
 */
export function bindGroup<S extends Schema, T extends PoolMember = PoolMember>(
  runtime: Pick<Runtime<S>, 'schema'>,
  group: PoolGroup<T>,
  fields: PoseFields<S>,
  options: GroupOptions<T> = {},
): GroupBinding<S, T> {
  if (group === null || typeof group !== 'object' || typeof group.getChildren !== 'function' || typeof group.create !== 'function') {
    throw new TypeError('@steadyframe/phaser: bindGroup takes a Phaser Group (this.add.group(...))');
  }
  const make = options.make;
  if (make !== undefined && typeof make !== 'function') throw new TypeError('@steadyframe/phaser: options.make must be a function (i) => GameObject');
  const resolved = resolveFields(runtime.schema, fields);
  let made = 0;
  let overflow = 0;
  /** Members [0, shown) were active and visible after the last update. */
  let shown = 0;

  const grow = (count: number): T[] => {
    let members = group.getChildren();
    while (members.length < count && !group.isFull()) {
      const i = members.length;
      let member: T | null;
      if (make !== undefined) {
        member = make(i);
        if (member === null || typeof member !== 'object') throw new TypeError(`@steadyframe/phaser: options.make(${i}) must return a game object, not ${String(member)}`);
        const onList = (member as { displayList?: unknown }).displayList;
        group.add(member, onList === null || onList === undefined);
      } else {
        member = group.create(0, 0, undefined, undefined, false, false);
      }
      if (member === null) break;
      member.visible = false;
      member.active = false;
      made++;
      members = group.getChildren();
      if (members.length === i) throw new Error('@steadyframe/phaser: bindGroup made a member but the group did not grow (does make return one object per call?)');
    }
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
      if (!Number.isInteger(count) || count < 0) throw new RangeError(`@steadyframe/phaser: reserve(count) takes a whole number >= 0, not ${count}`);
      grow(count);
    },
    update(frame) {
      const members = grow(frame.count);
      const count = Math.min(frame.count, members.length);
      overflow = frame.count - count;
      applyPose(frame, resolved, members, count);
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
