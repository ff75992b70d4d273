/**
 * Contact start and end as steadyframe events (opt-in: `contacts: { events: true }`). Rapier reports a pair of
 * colliders starting or stopping to touch through an EventQueue drained after its step; this module turns each
 * report into one `tick.emit` of that tick, naming the two entities and, for a start, how hard they met.
 *
 *   step k:  Rapier step(queue) ─ collect: drain the queue ──────────── afterStep ─ emitContacts(tick)
 *            (narrow phase,       collider -> body handle, and for       (may remove   body handle -> entity index
 *             solver)             a start the impulse of its manifolds)   bodies)      as published for tick k
 *
 * Two stages, because the indices must be those of the state the frame shows: `afterStep` may swap-remove
 * bodies after the drain, and the impulse must be read before a body (and its colliders) is gone. So the drain
 * keeps Rapier's body handles (stable) and the impulse; the emit maps handles to entity indices last.
 *
 * Payload: p0 and p1 the two entities in Rapier's pair order, except that a side that is not an entity (a
 * collider with no body, a body not added by `physics.add`, one removed) is -1 and always p1; pairs with no
 * entity on either side are not emitted. Reports are per collider pair: a body with several colliders can start
 * touching another through more than one, and then reports more than one. A start's p2 is the sum of the normal impulses (N·s) Rapier's solver
 * applied at the pair's contact points in the step they began to touch: about m·Δv of the blow, 0 for a sensor
 * or a touch the solver did not need to push apart.
 *
 * Pending records live in one Float64Array, 4 words each, grown by doubling (allocates only when a step has
 * more contacts than any step before it):
 *
 *   word  0          1          2                  3
 *         body 1     body 2     1 start / 0 end    impulse (N·s; 0 for an end)
 *   (a body handle is NaN for a collider with no body, or one removed before the step that reports it)
 */
import type { ContactManifoldApi, EventQueueApi, WorldApi } from './rapier-api.ts';

/** What the drain reads of a Rapier world, 2D or 3D. */
type ContactWorld = Pick<WorldApi, 'bodies' | 'colliders' | 'narrowPhase'>;

/** The event code of a contact start (the default; `contacts.codes` chooses others). */
export const CONTACT_START = 90_000;
/** The event code of a contact end (the default; `contacts.codes` chooses others). */
export const CONTACT_END = 90_001;

export interface ContactOptions {
  /**
   * Emit an event for each contact start (and end) between an entity's collider and another collider. Off
   * unless true: Rapier then reports collision events for every collider `physics.add` creates.
   */
  readonly events: boolean;
  /** The codes of the two events. Default { start: CONTACT_START, end: CONTACT_END } (90000, 90001). */
  readonly codes?: { readonly start: number; readonly end: number };
  /**
   * A start whose impulse is below this (N·s) is not emitted (its end still is). Default 0: every start. A
   * pile at rest makes and breaks contacts with tiny impulses each tick; a floor on them keeps the ring for the
   * ones worth a sound.
   */
  readonly minImpulse?: number;
  /** Emit ends too. Default true. */
  readonly ends?: boolean;
}

/** What `tick.emit` is to this module (a TickInfo is one). */
export interface ContactEmitter {
  emit(code: number, p0?: number, p1?: number, p2?: number, p3?: number): boolean;
}

const WORDS = 4;

/** The two stages and their pending records. One per Physics; nothing allocated per contact by this module. */
export interface ContactCollector {
  readonly queue: EventQueueApi;
  /** Reads the queue Rapier's last step filled: each pair's body handles and, for a start, its impulse. */
  collect(world: ContactWorld): void;
  /** Emits what `collect` kept, with the entity each body is now (`entityOf`), and forgets it. Returns how many the ring took. */
  emit(tick: ContactEmitter, entityOf: (bodyHandle: number) => number): number;
  /** Forgets what is pending (a new Rapier world). */
  clear(): void;
  free(): void;
}

export function checkContactOptions(options: ContactOptions): void {
  const codes = options.codes;
  if (codes !== undefined && !(Number.isInteger(codes.start) && codes.start >= 0 && Number.isInteger(codes.end) && codes.end >= 0 && codes.start !== codes.end)) {
    throw new Error(`@steadyframe/rapier: contacts.codes needs two different whole numbers, 0 or more (game event codes); got { start: ${String(codes.start)}, end: ${String(codes.end)} }`);
  }
  const min = options.minImpulse;
  if (min !== undefined && !(min >= 0)) {
    throw new Error(`@steadyframe/rapier: contacts.minImpulse is an impulse in N·s, 0 or more; got ${String(min)} (leave it out for every start)`);
  }
}

export function createContactCollector(queue: EventQueueApi, options: ContactOptions): ContactCollector {
  const startCode = options.codes?.start ?? CONTACT_START;
  const endCode = options.codes?.end ?? CONTACT_END;
  const minImpulse = options.minImpulse ?? 0;
  const ends = options.ends ?? true;
  let pending = new Float64Array(WORDS * 64);
  let count = 0;
  // set by collect for the closures below, which are made once
  let world: ContactWorld | null = null;
  let impulse = 0;

  const bodyOf = (collider: number): number => {
    const raw = world!.colliders.raw;
    if (!raw.contains(collider)) return Number.NaN; // removed before this step (its body with it)
    const parent = raw.coParent(collider);
    return parent === undefined ? Number.NaN : parent;
  };
  const addImpulses = (manifold: ContactManifoldApi): void => {
    const n = manifold.numContacts();
    for (let i = 0; i < n; i++) impulse += manifold.contactImpulse(i);
  };
  const onCollision = (collider1: number, collider2: number, started: boolean): void => {
    if (!started && !ends) return;
    if (WORDS * (count + 1) > pending.length) {
      const grown = new Float64Array(2 * pending.length);
      grown.set(pending);
      pending = grown;
    }
    impulse = 0;
    // the solver's normal impulses of this step, the one in which the pair started touching (a sensor has none)
    if (started) world!.narrowPhase.contactPair(collider1, collider2, world!.bodies, addImpulses);
    if (started && impulse < minImpulse) return;
    const at = WORDS * count++;
    pending[at] = bodyOf(collider1);
    pending[at + 1] = bodyOf(collider2);
    pending[at + 2] = started ? 1 : 0;
    pending[at + 3] = impulse;
  };

  return {
    queue,
    collect(w) {
      world = w;
      queue.drainCollisionEvents(onCollision);
      world = null;
    },
    emit(tick, entityOf) {
      let taken = 0;
      for (let k = 0; k < count; k++) {
        const at = WORDS * k;
        let a = entityOf(pending[at]!);
        let b = entityOf(pending[at + 1]!);
        if (a < 0 && b < 0) continue; // neither side is an entity now (a reset removed both, say)
        if (a < 0) {
          a = b;
          b = -1;
        }
        const ok = pending[at + 2] === 1 ? tick.emit(startCode, a, b, pending[at + 3]) : tick.emit(endCode, a, b);
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
