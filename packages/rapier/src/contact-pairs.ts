/**
 * Which contacts become events, under which codes: the contact options, checked at set-up, and the routing
 * table that `contact-events.ts` looks each contact up in (by the two sides' sets, allocating nothing).
 *
 * A Physics of one target reports every contact that has an entity on at least one side, under one pair of
 * codes. A Physics of tables reports the pairs of tables `contacts.pairs` names, each under its own codes,
 * and nothing else:
 *
 *   side        -1 none (a collider with no entity)   0 ships   1 rocks   2 bullets     (set numbers)
 *   routes      (n + 1) x (n + 1) cells, cell [a + 1][b + 1] = 2 * pair + flipped, or -1: not reported
 *
 *               none      ships     rocks     bullets
 *   none        -1        -1        1 (b)     -1            pairs: 0 ['bullets', 'rocks']
 *   ships       -1        -1        2         -1                   1 ['rocks', null]
 *   rocks       0 (a)     3         -1        1                    (a: 2 * 1, b: 2 * 1 + 1, flipped)
 *   bullets     -1        -1        0         -1
 */

/** The event code of a contact start (the default; `contacts.codes` chooses others). */
export const CONTACT_START = 90_000;
/** The event code of a contact end (the default; `contacts.codes` chooses others). */
export const CONTACT_END = 90_001;

/** One pair of tables whose contacts are reported, and how. */
export interface ContactPair {
  /**
   * The two tables, by name, in payload order: payload 0 is the first table's entity, 1 the second's. `null`
   * for the second: a collider with no entity (ground made with `physics.world.createCollider`, a body not
   * added through the Physics). The same table twice: contacts within it.
   */
  readonly tables: readonly [string, string | null];
  /** The pair's event codes: two different whole numbers, used by no other pair. */
  readonly codes: { readonly start: number; readonly end: number };
  /** As `ContactOptions.minImpulse`, for this pair. Default: the options'. */
  readonly minImpulse?: number;
  /** As `ContactOptions.ends`, for this pair. Default: the options'. */
  readonly ends?: boolean;
}

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
  /**
   * With tables (`createPhysics(RAPIER, world, { tables })`), and only then: the pairs of tables whose contacts
   * are events, each under its own codes (`codes` is then not used). Required there: a contact between two
   * tables no pair names is not reported, and the colliders of a table no pair names report nothing.
   */
  readonly pairs?: readonly ContactPair[];
}

/** A pair as the collector uses it. */
export interface Route {
  readonly start: number;
  readonly end: number;
  readonly minImpulse: number;
  readonly ends: boolean;
}

/** The routing of one Physics' contacts. */
export interface Routing {
  readonly routes: readonly Route[];
  /** Contacts between a side of set `a` and one of set `b` (-1: none): 2 * route + flipped, or -1. */
  route(a: number, b: number): number;
  /** Whether the colliders of set `set` need to report collisions. */
  reports(set: number): boolean;
  /** Whether sides keep Rapier's order, the entity first (one target), or the route's (tables). */
  readonly entityFirst: boolean;
}

const isCode = (code: unknown): code is number => typeof code === 'number' && Number.isInteger(code) && code >= 0;

function checkCodes(codes: { readonly start: number; readonly end: number }, where: string): void {
  if (!(isCode(codes.start) && isCode(codes.end) && codes.start !== codes.end)) {
    throw new Error(`@steadyframe/rapier: ${where} needs two different whole numbers, 0 or more (game event codes); got { start: ${String(codes.start)}, end: ${String(codes.end)} }`);
  }
}

function checkImpulse(min: number | undefined, where: string): void {
  if (min !== undefined && !(min >= 0)) throw new Error(`@steadyframe/rapier: ${where} is an impulse in N·s, 0 or more; got ${String(min)} (leave it out for every start)`);
}

/**
 * Checks the options and makes their routing: `tables` the names of a Physics' tables in set order, or null for
 * a Physics of one target. Throws at set-up, naming the fix.
 */
export function contactRouting(options: ContactOptions, tables: readonly string[] | null): Routing {
  if (options.codes !== undefined) checkCodes(options.codes, 'contacts.codes');
  checkImpulse(options.minImpulse, 'contacts.minImpulse');
  const minImpulse = options.minImpulse ?? 0;
  const ends = options.ends ?? true;
  const pairs = options.pairs;
  if (tables === null) {
    if (pairs !== undefined) throw new Error('@steadyframe/rapier: contacts.pairs names tables, and this Physics has none: give createPhysics (or the definition) { tables: { name: {}, ... } }, or leave pairs out');
    const route: Route = { start: options.codes?.start ?? CONTACT_START, end: options.codes?.end ?? CONTACT_END, minImpulse, ends };
    // every contact with an entity on a side; the collector puts the entity first
    return { routes: [route], route: (a, b) => (a < 0 && b < 0 ? -1 : 0), reports: () => true, entityFirst: true };
  }
  if (pairs === undefined || pairs.length === 0) {
    throw new Error(`@steadyframe/rapier: contact events with tables need contacts.pairs, the pairs of tables that report, each with its codes: e.g. pairs: [{ tables: ['${tables[0] ?? 'a'}', null], codes: { start: 1, end: 2 } }]`);
  }
  const n = tables.length;
  const cells = new Int32Array((n + 1) * (n + 1)).fill(-1);
  const reporting = new Uint8Array(n);
  const used = new Set<number>();
  const routes = pairs.map((pair, k): Route => {
    const where = `contacts.pairs[${k}]`;
    const [first, second] = pair.tables ?? [];
    const a = tables.indexOf(first as string);
    const b = second === null ? -1 : tables.indexOf(second as string);
    if (a < 0 || (second !== null && b < 0)) {
      throw new Error(`@steadyframe/rapier: ${where}.tables is [${JSON.stringify(first)}, ${JSON.stringify(second)}]: name two of the Physics' tables (${tables.join(', ')}), the second null for colliders with no entity`);
    }
    checkCodes(pair.codes ?? { start: -1, end: -1 }, `${where}.codes`);
    for (const code of [pair.codes.start, pair.codes.end]) {
      if (used.has(code)) throw new Error(`@steadyframe/rapier: ${where}.codes uses ${code}, which another pair uses too: give each pair codes of its own`);
      used.add(code);
    }
    checkImpulse(pair.minImpulse, `${where}.minImpulse`);
    const forward = (a + 1) * (n + 1) + (b + 1);
    const backward = (b + 1) * (n + 1) + (a + 1);
    if (cells[forward] !== -1) throw new Error(`@steadyframe/rapier: ${where} names tables ${first} and ${String(second)}, which an earlier pair names: one pair each`);
    cells[forward] = 2 * k;
    if (backward !== forward) cells[backward] = 2 * k + 1;
    reporting[a] = 1;
    if (b >= 0) reporting[b] = 1;
    return { start: pair.codes.start, end: pair.codes.end, minImpulse: pair.minImpulse ?? minImpulse, ends: pair.ends ?? ends };
  });
  return { routes, route: (a, b) => cells[(a + 1) * (n + 1) + (b + 1)]!, reports: (set) => reporting[set] === 1, entityFirst: false };
}
