/**
 * Interest by distance (net/interest.ts): a client sees the entities within `radius` of its focus entity (its
 * avatar), by a field of 2 or 3 components (`position` by default). One grid a snapshot, built at the first client's
 * selection and shared by the rest: cells of `radius`, entities counting-sorted by a hash of their cell, so a client's
 * selection reads the 3^d cells around its focus (a hash collision only adds candidates; the distance decides).
 *
 * ```text
 *   cell (cx, cy[, cz]) = floor(p / radius) ── hash ──▶ bucket: [start[b], start[b + 1]) of `order`
 *   select: the buckets of the cells around the focus ── within radius ──▶ out (the focus first)
 * ```
 *
 * More entities in range than the limit: the nearest-first order is not kept, the first found are (counted in
 * `dropped`): give the limit room.
 */
import type { InterestClient, InterestOptions, InterestState } from './interest.ts';

export interface RadiusInterestOptions {
  /** Distance in the field's units: a client sees the entities within it of its focus. */
  readonly radius: number;
  /** The field positions are read from (width 2 or 3; the first 3 components of a wider one). Default 'position'. */
  readonly field?: string;
  /** The entity the client sees around (its avatar's index), or −1: none (it sees nothing). */
  readonly focus: (client: InterestClient, state: InterestState) => number;
  /** Most entities a client sees (InterestOptions.limit). */
  readonly limit?: number;
}

export interface RadiusInterest extends InterestOptions {
  /** Entities in range left out for the limit, since made. */
  readonly stats: { dropped: number };
}

export function radiusInterest(options: RadiusInterestOptions): RadiusInterest {
  const { radius } = options;
  if (!(radius > 0) || !Number.isFinite(radius)) throw new RangeError(`steadyframe: radiusInterest's radius must be a finite distance above 0; got ${String(radius)}`);
  const name = options.field ?? 'position';
  const stats = { dropped: 0 };
  let builtTick = -1;
  let width = 0;
  let dims = 0;
  let values: Float32Array = new Float32Array(0);
  const visited = new Int32Array(27);
  let mask = 0;
  let start = new Int32Array(0);
  let order = new Uint32Array(0);
  let bucketOf = new Int32Array(0);
  const cell = (v: number): number => Math.floor(v / radius);
  const hash = (cx: number, cy: number, cz: number): number => (Math.imul(cx, 0x8da6b343) ^ Math.imul(cy, 0xd8163841) ^ Math.imul(cz, 0xcb1ab31f)) & mask;
  const build = (state: InterestState): void => {
    builtTick = state.tick;
    values = state.field(name);
    const count = state.count;
    width = count === 0 ? 1 : values.length / count;
    if (!Number.isInteger(width) || width < 2) throw new RangeError(`steadyframe: radiusInterest's field "${name}" needs 2 or 3 components an entity`);
    dims = Math.min(3, width);
    let buckets = 16;
    while (buckets < 2 * count) buckets *= 2;
    mask = buckets - 1;
    if (start.length < buckets + 1) start = new Int32Array(buckets + 1);
    else start.fill(0, 0, buckets + 1);
    if (order.length < count) {
      order = new Uint32Array(count);
      bucketOf = new Int32Array(count);
    }
    for (let i = 0; i < count; i++) {
      const p = i * width;
      const b = hash(cell(values[p]!), cell(values[p + 1]!), dims === 3 ? cell(values[p + 2]!) : 0);
      bucketOf[i] = b;
      start[b + 1]!++;
    }
    for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
    const fill = start.slice(0, buckets);
    for (let i = 0; i < count; i++) order[fill[bucketOf[i]!]!++] = i;
  };
  const select = (client: InterestClient, state: InterestState, out: Uint32Array): number => {
    if (state.tick !== builtTick) build(state);
    const focus = options.focus(client, state);
    if (!(Number.isInteger(focus) && focus >= 0 && focus < state.count) || out.length === 0) return 0;
    const f = focus * width;
    const fx = values[f]!;
    const fy = values[f + 1]!;
    const fz = dims === 3 ? values[f + 2]! : 0;
    let n = 0;
    out[n++] = focus;
    const r2 = radius * radius;
    const cx = cell(fx);
    const cy = cell(fy);
    const cz = dims === 3 ? cell(fz) : 0;
    const zr = dims === 3 ? 1 : 0;
    // a bucket two neighbouring cells hash to is read once
    let buckets = 0;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dz = -zr; dz <= zr; dz++) {
          const b = hash(cx + dx, cy + dy, cz + dz);
          let seen = false;
          for (let v = 0; v < buckets && !seen; v++) seen = visited[v] === b;
          if (seen) continue;
          visited[buckets++] = b;
          for (let k = start[b]!; k < start[b + 1]!; k++) {
            const i = order[k]!;
            if (i === focus) continue;
            const p = i * width;
            const ex = values[p]! - fx;
            const ey = values[p + 1]! - fy;
            const ez = dims === 3 ? values[p + 2]! - fz : 0;
            if (ex * ex + ey * ey + ez * ez > r2) continue;
            if (n === out.length) stats.dropped++;
            else out[n++] = i;
          }
        }
      }
    }
    return n;
  };
  return { select, stats, ...(options.limit === undefined ? {} : { limit: options.limit }) };
}
