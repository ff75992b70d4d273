/**
 * Contact start and end as steadyframe events (opt-in: `contacts: { events: true }`). Rapier reports a pair of
 * colliders starting or stopping to touch through an EventQueue drained after its step; this module turns each
 * report into one event of that tick, naming the two entities (and their tables' handles) and, for a start, how
 * hard they met. Which pairs report, under which codes: `contact-pairs.ts`.
 *
 *   step k:  Rapier step(queue) ─ collect: drain the queue ──────────── afterStep ─ emitContacts(tick)
 *            (narrow phase,       collider -> body handle -> set (table)  (may remove   body handle -> entity index
 *             solver)             and handle; route; a start's impulse)   bodies)      as published for tick k
 *
 * Two stages, because the indices must be those of the state the frame shows: `afterStep` may swap-remove
 * bodies after the drain, and the impulse must be read before a body (and its colliders) is gone. So the drain
 * keeps Rapier's body handles (stable), each side's set and steadyframe handle, and the impulse; the emit maps
 * body handles to entity indices last. Rapier reports a removed body's ends in the next step, its colliders
 * gone by then: the Physics keeps each removed collider's set and handle until that drain (`ContactSides`), so
 * the end is routed to its table's pair and names the entity's handle.
 *
 * Payload (the README's table): 0 and 1 the two entities' indices, 2 a start's impulse (0 for an end), 3 and 4
 * the two entities' steadyframe handles (a table's `handle(i)`; -1 for a side with none). A side that is not
 * an entity when the event is emitted (a collider with no body, a body not added through the Physics, one
 * removed) has index -1; a removed table entity keeps its handle. Sides come in the pair's order
 * (`pairs[k].tables`); with one target, in Rapier's order, except that a live entity is always first. A contact
 * is not emitted when neither side is an entity, nor a removed one with a handle (both of a world's removed, a
 * reset).
 *
 * A start's impulse is the sum of the normal impulses (N·s) Rapier's solver applied at the pair's contact
 * points in the step they began to touch: about m·Δv of the blow, 0 for a sensor or a touch the solver did not
 * need to push apart. Reports are per collider pair: a body with several colliders can report more than one.
 *
 * Pending records live in one Float64Array, WORDS each, grown by doubling (allocates only when a step has more
 * contacts than any step before it):
 *
 *   word  0          1          2        3        4          5          6       7                8
 *         body 1     body 2     set 1    set 2    handle 1   handle 2   route   1 start / 0 end  impulse
 *   (a body handle is NaN for a collider with no body; a set -1 for no entity's; sides already in route order)
 */
import { contactRouting, type ContactOptions, type Routing } from './contact-pairs.ts';
import type { ContactManifoldApi, EventQueueApi, WorldApi } from './rapier-api.ts';

export { CONTACT_END, CONTACT_START } from './contact-pairs.ts';
export type { ContactOptions, ContactPair } from './contact-pairs.ts';

/** What the drain reads of a Rapier world, 2D or 3D. */
type ContactWorld = Pick<WorldApi, 'bodies' | 'colliders' | 'narrowPhase'>;

/** What `tick.emit` and `tick.emitPayload` are to this module (a TickInfo is one). */
export interface ContactEmitter {
  emit(code: number, p0?: number, p1?: number, p2?: number, p3?: number): boolean;
  /** Used when there, for the fifth word (the second handle); else `emit` carries the first four. */
  emitPayload?(code: number, payload: ArrayLike<number>): boolean;
}

/** Which entity each body is, as the Physics keeps them. */
export interface ContactSides {
  /** The set (table) of a live body; -1 for none (a body not added through the Physics). */
  setOf(bodyHandle: number): number;
  /** The steadyframe handle of a live body of set `set`, or -1. */
  handleOf(set: number, bodyHandle: number): number;
  /** The set of the body a collider was on, removed since the last drain (its collider gone too), or -1. */
  removedSetOf(collider: number): number;
  /** The steadyframe handle that body's entity had, or -1. */
  removedHandleOf(collider: number): number;
  /** The entity index a body of set `set` has now, or -1. */
  indexOf(set: number, bodyHandle: number): number;
}

const WORDS = 9;

/** The two stages and their pending records. One per Physics; nothing allocated per contact by this module. */
export interface ContactCollector {
  readonly queue: EventQueueApi;
  /** Whether the colliders of set `set` must report collisions. */
  reports(set: number): boolean;
  /** Reads the queue Rapier's last step filled: each pair's sides, its route and, for a start, its impulse. */
  collect(world: ContactWorld): void;
  /** Emits what `collect` kept, with the entity each body is now, and forgets it. Returns how many the ring took. */
  emit(tick: ContactEmitter): number;
  /** Forgets what is pending (a new Rapier world). */
  clear(): void;
  free(): void;
}

/** Checks contact options at set-up (`tables`: the Physics' table names, or null for one target). */
export function checkContactOptions(options: ContactOptions, tables: readonly string[] | null = null): void {
  contactRouting(options, tables);
}

export function createContactCollector(queue: EventQueueApi, routing: Routing, sides: ContactSides): ContactCollector {
  const { routes, entityFirst } = routing;
  let pending = new Float64Array(WORDS * 64);
  let count = 0;
  const payload = new Float64Array(5);
  // set by collect for the closures below, which are made once
  let world: ContactWorld | null = null;
  let impulse = 0;

  // one side's body, set and steadyframe handle, as `side` leaves them
  let sideBody = 0;
  let sideSet = -1;
  let sideHandle = -1;
  const side = (collider: number): void => {
    const raw = world!.colliders.raw;
    if (!raw.contains(collider)) {
      // removed before this step, its body with it: the Physics kept what it was
      sideBody = Number.NaN;
      sideSet = sides.removedSetOf(collider);
      sideHandle = sideSet < 0 ? -1 : sides.removedHandleOf(collider);
      return;
    }
    const parent = raw.coParent(collider);
    sideBody = parent === undefined ? Number.NaN : parent;
    sideSet = sides.setOf(sideBody);
    sideHandle = sideSet < 0 ? -1 : sides.handleOf(sideSet, sideBody);
  };
  const addImpulses = (manifold: ContactManifoldApi): void => {
    const n = manifold.numContacts();
    for (let i = 0; i < n; i++) impulse += manifold.contactImpulse(i);
  };
  const onCollision = (collider1: number, collider2: number, started: boolean): void => {
    side(collider1);
    let body1 = sideBody;
    let set1 = sideSet;
    let handle1 = sideHandle;
    side(collider2);
    let body2 = sideBody;
    let set2 = sideSet;
    let handle2 = sideHandle;
    const routed = routing.route(set1, set2);
    if (routed < 0) return;
    const route = routes[routed >> 1]!;
    if (!started && !route.ends) return;
    impulse = 0;
    // the solver's normal impulses of this step, the one in which the pair started touching (a sensor has none)
    if (started) world!.narrowPhase.contactPair(collider1, collider2, world!.bodies, addImpulses);
    if (started && impulse < route.minImpulse) return;
    if ((routed & 1) === 1) {
      // the route's first table is Rapier's second collider's
      const body = body1;
      body1 = body2;
      body2 = body;
      const set = set1;
      set1 = set2;
      set2 = set;
      const handle = handle1;
      handle1 = handle2;
      handle2 = handle;
    }
    if (WORDS * (count + 1) > pending.length) {
      const grown = new Float64Array(2 * pending.length);
      grown.set(pending);
      pending = grown;
    }
    const at = WORDS * count++;
    pending[at] = body1;
    pending[at + 1] = body2;
    pending[at + 2] = set1;
    pending[at + 3] = set2;
    pending[at + 4] = handle1;
    pending[at + 5] = handle2;
    pending[at + 6] = routed >> 1;
    pending[at + 7] = started ? 1 : 0;
    pending[at + 8] = impulse;
  };

  return {
    queue,
    reports: routing.reports,
    collect(w) {
      world = w;
      queue.drainCollisionEvents(onCollision);
      world = null;
    },
    emit(tick) {
      let taken = 0;
      for (let k = 0; k < count; k++) {
        const at = WORDS * k;
        const set1 = pending[at + 2]!;
        const set2 = pending[at + 3]!;
        let first = 0;
        let second = 1;
        let a = set1 < 0 ? -1 : sides.indexOf(set1, pending[at]!);
        let b = set2 < 0 ? -1 : sides.indexOf(set2, pending[at + 1]!);
        // neither side an entity now, nor one known by its handle (a world's entities have none): nothing to name
        if (a < 0 && b < 0 && pending[at + 4]! < 0 && pending[at + 5]! < 0) continue;
        if (entityFirst && a < 0 && b >= 0) {
          a = b;
          b = -1;
          first = 1;
          second = 0;
        }
        const route = routes[pending[at + 6]!]!;
        const started = pending[at + 7] === 1;
        const code = started ? route.start : route.end;
        payload[0] = a;
        payload[1] = b;
        payload[2] = started ? pending[at + 8]! : 0;
        payload[3] = pending[at + 4 + first]!;
        payload[4] = pending[at + 4 + second]!;
        const ok = tick.emitPayload === undefined ? tick.emit(code, a, b, payload[2], payload[3]) : tick.emitPayload(code, payload);
        if (ok) taken++;
      }
      count = 0;
      return taken;
    },
    clear() {
      count = 0;
      queue.clear();
    },
    free() {
      count = 0;
      queue.free();
    },
  };
}
