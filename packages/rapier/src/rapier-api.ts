/**
 * What the glue calls on a Rapier build, 2D or 3D, as structural types: the compat builds' classes and the
 * deterministic builds' (2D 0.20, 3D 0.21) all fit them, so the code both dimensions share imports neither
 * package, and a 2D app needs no 3D package installed (nor the other way round). The per-dimension files
 * (`physics.ts`, `physics-2d.ts`) name the real classes. Types only.
 *
 * Methods, not function-typed properties: TypeScript compares method parameters both ways, so Rapier's
 * `contactPair(c1, c2, bodies: RigidBodySet, f)` fits the narrower shape below.
 */

/** A rigid body as the glue reads it. */
export interface BodyApi {
  readonly handle: number;
  isFixed(): boolean;
  numColliders(): number;
  collider(i: number): { readonly handle: number };
}

/** A collider description: the glue adds `ActiveEvents.COLLISION_EVENTS` when contact events are on. */
export interface ColliderDescApi {
  activeEvents: number;
  setActiveEvents(events: number): unknown;
}

/** The raw rigid-body set (`world.bodies.raw`); each dimension's pose copy reads it further. */
export interface RawBodySetApi {
  rbIsSleeping(handle: number): boolean;
}

export interface EventQueueApi {
  drainCollisionEvents(f: (collider1: number, collider2: number, started: boolean) => void): void;
  clear(): void;
  free(): void;
}

export interface ContactManifoldApi {
  numContacts(): number;
  contactImpulse(i: number): number;
}

/** The bodies of a world as `narrowPhase.contactPair` wants them. */
export interface BodySetApi {
  readonly raw: RawBodySetApi;
}

/** A Rapier `World`, with the bodies, colliders and descriptions of its build. */
export interface WorldApi<Body extends BodyApi = BodyApi, BodyDesc = never, ColliderDesc = never> {
  timestep: number;
  readonly bodies: BodySetApi;
  readonly colliders: { readonly raw: { contains(handle: number): boolean; coParent(handle: number): number | undefined } };
  readonly narrowPhase: { contactPair(collider1: number, collider2: number, bodies: BodySetApi, f: (manifold: ContactManifoldApi, flipped: boolean) => void): void };
  createRigidBody(desc: BodyDesc): Body;
  createCollider(desc: ColliderDesc, parent?: Body): unknown;
  getRigidBody(handle: number): Body;
  removeRigidBody(body: Body): void;
  step(queue?: EventQueueApi): void;
  takeSnapshot(): Uint8Array;
  free(): void;
}

/** The Rapier module (after `RAPIER.init()`), as far as the shared code uses it. */
export interface RapierApi<W> {
  readonly World: { restoreSnapshot(data: Uint8Array): W | null | undefined };
  readonly EventQueue: new (autoDrain: boolean) => EventQueueApi;
  readonly ActiveEvents: { readonly COLLISION_EVENTS: number };
  init(): Promise<void>;
}
