/**
 * Rapier's 2D build (`@dimforge/rapier2d-compat`, or its deterministic build) bound to steadyframe entities:
 * the shared glue (`bodies.ts`) with the 2D pose, a translation (width 2) and an angle (width 1, radians).
 *
 *   raw.rbTranslation(handle, scratch) -> position[2i], position[2i + 1]
 *   raw.rbRotation(handle)             -> angle[i]    (a number in 2D: radians, -PI to PI)
 */
import type RAPIER from '@dimforge/rapier2d-compat';
import type { ColliderDesc, RigidBody, RigidBodyDesc, World as RapierWorld } from '@dimforge/rapier2d-compat';
import { createPhysicsOf, poseField, type DimensionOf, type PhysicsOf, type PoseCopy, type TableBodiesOf, type TablesPhysicsOf } from './bodies.ts';
import type { ContactOptions } from './contact-events.ts';
import type { EntityTarget, TablesTarget } from './entity-target.ts';

/** The 2D Rapier module after `await RAPIER.init()` (the compat build's default export). */
export type Rapier = typeof RAPIER;

/** The fields a target's poses go to. */
export interface PoseFields {
  /** The schema field that takes translations: linear, width 2. Default 'position'. */
  readonly position?: string;
  /** The schema field that takes rotations: an angle in radians, width 1 (kind 'angle'). Default 'angle'. */
  readonly angle?: string;
}

export interface PhysicsOptions extends PoseFields {
  /** Gravity in world units per second squared. Default { x: 0, y: -9.81 } (y up; a y-down screen wants +y). */
  readonly gravity?: { x: number; y: number };
  /**
   * `{ events: true }`: each contact start and end between an entity's collider and another collider becomes an
   * event of the tick it happened in (codes CONTACT_START and CONTACT_END; payload the two entity indices, for a
   * start its impulse, and the entities' handles). Off by default: Rapier then reports no collisions and nothing
   * is drained. With tables, `pairs` says which pairs of tables report, each under its own codes.
   */
  readonly contacts?: ContactOptions;
}

/** A Physics of several tables in one Rapier world: `tables` names them, each with its pose fields if not the options'. */
export interface TablesPhysicsOptions<K extends string> extends PhysicsOptions {
  readonly tables: { readonly [N in K]: PoseFields };
}

/** A teleport's pose: a translation, and optionally an angle in radians (else the rotation is left alone). */
export type Pose2D = [x: number, y: number, angle?: number | undefined];

/** Rapier's 2D world bound to steadyframe entities: entity i is body i (see `PhysicsOf` for each member). */
export interface Physics extends PhysicsOf<RapierWorld, RigidBody, RigidBodyDesc, ColliderDesc, Pose2D> {}
/** One table's bodies in a `TablesPhysics` (`physics.tables.crates`). */
export interface TableBodies extends TableBodiesOf<RigidBody, RigidBodyDesc, ColliderDesc, Pose2D> {}
/** Rapier's 2D world bound to several tables (see `TablesPhysicsOf`). */
export interface TablesPhysics<K extends string = string> extends TablesPhysicsOf<K, RapierWorld, RigidBody, RigidBodyDesc, ColliderDesc, Pose2D> {}

const DEFAULT_GRAVITY = { x: 0, y: -9.81 };

const dimension: DimensionOf<Rapier, RapierWorld, RigidBody, Pose2D, PhysicsOptions> = {
  createWorld: (rapier, { gravity: g = DEFAULT_GRAVITY }) => new rapier.World({ x: g.x, y: g.y }),
  pose(target, options, where): PoseCopy<RapierWorld, RigidBody, Pose2D> {
    const position = poseField(target, options.position ?? 'position', 2, 'a linear schema field', `${where}for translations (schema2d has one); pass { position: 'yourField' }`);
    const angle = poseField(target, options.angle ?? 'angle', 1, 'an angle schema field', `${where}for rotations (schema2d has one); pass { angle: 'yourField' }`);
    // Rapier's raw call writes a body's translation into the first two floats of this buffer
    const scratch = new Float32Array(2);
    return {
      copy(raw, i, handle) {
        raw.rbTranslation(handle, scratch);
        position[2 * i] = scratch[0]!;
        position[2 * i + 1] = scratch[1]!;
        angle[i] = raw.rbRotation(handle);
      },
      set(body, [x, y, a]) {
        body.setTranslation({ x, y }, true);
        if (a !== undefined) body.setRotation(a, true);
      },
    };
  },
};

/**
 * Binds a new 2D Rapier world to a steadyframe world, or to any `EntityTarget` (a table of one): call it in
 * `init`, after `await RAPIER.init()`. With `{ tables: { crates: {}, balls: {} } }`, to those tables of
 * `target.tables` (a world of entity tables), all in the one Rapier world: a `TablesPhysics`. Throws at set-up,
 * naming the fix, when a target has no fitting position or angle field, or a table is not there.
 */
export function createPhysics<const K extends string>(rapier: Rapier, target: TablesTarget<NoInfer<K>>, options: TablesPhysicsOptions<K>): TablesPhysics<K>;
export function createPhysics(rapier: Rapier, target: EntityTarget, options?: PhysicsOptions): Physics;
export function createPhysics(rapier: Rapier, target: EntityTarget | TablesTarget, options: PhysicsOptions & { readonly tables?: { readonly [name: string]: PoseFields } } = {}): Physics | TablesPhysics {
  return createPhysicsOf(rapier, target, options, dimension);
}
