/**
 * Rapier's 3D build (`@dimforge/rapier3d-compat`, or its deterministic build) bound to steadyframe entities:
 * the shared glue (`bodies.ts`) with the 3D pose, a translation (width 3) and a quaternion (width 4).
 *
 *   raw.rbTranslation(handle, scratch) -> position[3i .. 3i + 2]
 *   raw.rbRotation(handle, scratch)    -> rotation[4i .. 4i + 3]   (x, y, z, w)
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import type { ColliderDesc, RigidBody, RigidBodyDesc, World as RapierWorld } from '@dimforge/rapier3d-compat';
import { createPhysicsOf, poseField, type DimensionOf, type PhysicsOf, type PoseCopy, type TableBodiesOf, type TablesPhysicsOf } from './bodies.ts';
import type { ContactOptions } from './contact-events.ts';
import type { EntityTarget, TablesTarget } from './entity-target.ts';

/** The Rapier module after `await RAPIER.init()` (the compat build's default export). */
export type Rapier = typeof RAPIER;

/** The fields a target's poses go to. */
export interface PoseFields {
  /** The schema field that takes translations: linear, width 3. Default 'position'. */
  readonly position?: string;
  /** The schema field that takes rotations: quaternion, width 4 (x, y, z, w). Default 'rotation'. */
  readonly rotation?: string;
}

export interface PhysicsOptions extends PoseFields {
  /** Gravity in world units per second squared. Default { x: 0, y: -9.81, z: 0 }. */
  readonly gravity?: { x: number; y: number; z: number };
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

/** A teleport's pose: a translation, and optionally a rotation quaternion (all four, or it is left alone). */
export type Pose3D = [x: number, y: number, z: number, qx?: number | undefined, qy?: number | undefined, qz?: number | undefined, qw?: number | undefined];

/** Rapier's 3D world bound to steadyframe entities: entity i is body i (see `PhysicsOf` for each member). */
export interface Physics extends PhysicsOf<RapierWorld, RigidBody, RigidBodyDesc, ColliderDesc, Pose3D> {}
/** One table's bodies in a `TablesPhysics` (`physics.tables.ships`). */
export interface TableBodies extends TableBodiesOf<RigidBody, RigidBodyDesc, ColliderDesc, Pose3D> {}
/** Rapier's 3D world bound to several tables (see `TablesPhysicsOf`). */
export interface TablesPhysics<K extends string = string> extends TablesPhysicsOf<K, RapierWorld, RigidBody, RigidBodyDesc, ColliderDesc, Pose3D> {}

const DEFAULT_GRAVITY = { x: 0, y: -9.81, z: 0 };

const dimension: DimensionOf<Rapier, RapierWorld, RigidBody, Pose3D, PhysicsOptions> = {
  createWorld: (rapier, { gravity: g = DEFAULT_GRAVITY }) => new rapier.World({ x: g.x, y: g.y, z: g.z }),
  pose(target, options, where): PoseCopy<RapierWorld, RigidBody, Pose3D> {
    const position = poseField(target, options.position ?? 'position', 3, 'a linear schema field', `${where}for translations (schema3d has one); pass { position: 'yourField' }`);
    const rotation = poseField(target, options.rotation ?? 'rotation', 4, 'a quaternion schema field', `${where}for rotations (schema3d has one); pass { rotation: 'yourField' }`);
    // Rapier's raw calls write a body's vector or quaternion into the first floats of this buffer
    const scratch = new Float32Array(4);
    return {
      copy(raw, i, handle) {
        raw.rbTranslation(handle, scratch);
        position[3 * i] = scratch[0]!;
        position[3 * i + 1] = scratch[1]!;
        position[3 * i + 2] = scratch[2]!;
        raw.rbRotation(handle, scratch);
        rotation[4 * i] = scratch[0]!;
        rotation[4 * i + 1] = scratch[1]!;
        rotation[4 * i + 2] = scratch[2]!;
        rotation[4 * i + 3] = scratch[3]!;
      },
      set(body, [x, y, z, qx, qy, qz, qw]) {
        body.setTranslation({ x, y, z }, true);
        if (qx !== undefined && qy !== undefined && qz !== undefined && qw !== undefined) body.setRotation({ x: qx, y: qy, z: qz, w: qw }, true);
      },
    };
  },
};

/**
 * Binds a new Rapier world to a steadyframe world, or to any `EntityTarget` (a table of one): call it in
 * `init`, after `await RAPIER.init()`. With `{ tables: { ships: {}, rocks: {} } }`, to those tables of
 * `target.tables` (a world of entity tables), all in the one Rapier world: a `TablesPhysics`. Throws at set-up,
 * naming the fix, when a target has no fitting position or rotation field, or a table is not there.
 */
export function createPhysics<const K extends string>(rapier: Rapier, target: TablesTarget<NoInfer<K>>, options: TablesPhysicsOptions<K>): TablesPhysics<K>;
export function createPhysics(rapier: Rapier, target: EntityTarget, options?: PhysicsOptions): Physics;
export function createPhysics(rapier: Rapier, target: EntityTarget | TablesTarget, options: PhysicsOptions & { readonly tables?: { readonly [name: string]: PoseFields } } = {}): Physics | TablesPhysics {
  return createPhysicsOf(rapier, target, options, dimension);
}
