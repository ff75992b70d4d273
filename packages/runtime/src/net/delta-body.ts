/**
 * A snapshot's body (ARCHITECTURE.md, "Multiplayer": the wire): one state's codes (net/snapshot-codes.ts) as the
 * changes from a baseline the client has, in bits (net/bits.ts). A full snapshot is the same coding against no
 * baseline: all codes 0, no entities.
 *
 * ```text
 *  k: one Rice parameter per code of an entity (5 bits each), the cheapest for this body's changes of that code
 *  the changed entities: 1 bit: 0 a bitmap of `count` bits; 1 gamma(n + 1), a Rice parameter (5 bits) and n gaps
 *    between their indices (Rice), whichever is shorter
 *  each changed entity: 1 bit its generation changed (then 32 bits: the generation); each field: 1 bit changed,
 *    then each of its codes as the zigzag of its difference from the baseline's, modulo 2^bits (Rice, k of the code)
 *  the game run: each value 1 bit changed (then its 64 bits)
 * ```
 *
 * An entity is changed when its generation or a code differs from the baseline's (an index past the baseline's
 * count has a baseline of zeros). Glenn Fiedler's "Snapshot Compression" and Quake 3 are the models: deltas
 * against the newest acknowledged state, changed entities by their index gaps; the Rice parameters take the place
 * of his hand-tuned bit classes, picked per body from its own numbers.
 */
import { RICE_ESCAPE, type BitReader, type BitWriter } from './bits.ts';
import type { SnapshotCodes } from './snapshot-codes.ts';
import { WireError, type WireFormat } from './wire-head.ts';

const K_BITS = 5;

/** The zigzag of `code − base` modulo `span` (2^bits): small differences either way are small numbers. */
function zigzag(code: number, base: number, span: number): number {
  let d = code - base;
  if (d < 0) d += span;
  return d >= span / 2 ? 2 * (span - d) - 1 : 2 * d;
}

function unzigzag(z: number, base: number, span: number): number {
  const v = base + (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
  return v < 0 ? v + span : v >= span ? v - span : v;
}

/** Bits a Rice code of `v` with parameter `k` takes (the escape: `bits` raw). */
function riceCost(v: number, k: number, bits: number): number {
  const q = Math.floor(v / 2 ** k);
  return q >= RICE_ESCAPE ? RICE_ESCAPE + bits : q + 1 + k;
}

/** Scratch of one encoder: what a body's first pass found. */
export class DeltaScratch {
  /** The changed entities' indices. */
  readonly changed: Uint32Array;
  /** Per entity: bit 0 generation changed, bit f + 1 field f changed. */
  readonly flags: Uint32Array;
  /** The zigzags of every code of every entity (0 where unchanged). */
  readonly zz: Float64Array;
  /** Each entity's reference codes (what it is coded against). */
  readonly refs: Uint32Array;
  readonly k: Uint8Array;
  /** 2^bits of each code. */
  readonly span: Float64Array;
  /**
   * Per code: −2 never extrapolated (a float's bits, a quaternion's index); −1 extrapolated; else the code of its
   * quaternion's index, which must be the same in both baselines (the three smallest are of the same components).
   */
  readonly extrapolate: Int16Array;

  constructor(format: WireFormat, capacity = format.layout.capacity) {
    if (format.layout.fields.length > 31) throw new RangeError('steadyframe: the wire codes at most 31 per-entity fields');
    this.changed = new Uint32Array(capacity);
    this.flags = new Uint32Array(capacity);
    this.zz = new Float64Array(capacity * format.codesPerEntity);
    this.refs = new Uint32Array(capacity * format.codesPerEntity);
    this.k = new Uint8Array(format.codesPerEntity);
    this.span = Float64Array.from(format.codeBits, (bits) => 2 ** bits);
    this.extrapolate = new Int16Array(format.codesPerEntity).fill(-1);
    format.layout.fields.forEach((field, f) => {
      const first = format.fieldCodes[f]!;
      for (let c = first; c < format.fieldCodes[f + 1]!; c++) {
        if (format.codeBits[c] === 32) this.extrapolate[c] = -2;
        else if (field.kind === 'quaternion') this.extrapolate[c] = c === first ? -2 : first;
      }
    });
  }
}

/**
 * Two baselines to code against: `base` (the newest the client acknowledged), and `older` (one it acknowledged
 * before) or null. With both, an entity of the same generation in each is coded against its motion carried on:
 * `base + (base − older) × steps` (each code's signed difference modulo 2^bits, rounded: both ends compute it alike),
 * where `steps` is (tick − base tick) / (base tick − older tick). Unity's Netcode for Entities predicts from its
 * baselines the same way; a body at rest or at a steady pace then costs nearly nothing.
 */
export interface Baselines {
  readonly base: SnapshotCodes | null;
  readonly older: SnapshotCodes | null;
  /** (tick − base.tick) / (base.tick − older.tick), as its two whole numbers. */
  readonly ahead: number;
  readonly apart: number;
}

/** Writes entity i's reference codes (what its codes are coded against) into `out` at i × C. */
function reference(format: WireFormat, s: DeltaScratch, b: Baselines, i: number, count: number, out: Uint32Array): void {
  const C = format.codesPerEntity;
  const row = i * C;
  const base = b.base;
  if (base === null || i >= base.count || i >= count) {
    out.fill(0, row, row + C);
    return;
  }
  const older = b.older;
  const codes = base.codes;
  if (older === null || i >= older.count || older.generation[i] !== base.generation[i]) {
    out.set(codes.subarray(row, row + C), row);
    return;
  }
  const before = older.codes;
  for (let c = 0; c < C; c++) {
    const rule = s.extrapolate[c]!;
    const v = codes[row + c]!;
    if (rule === -2 || (rule >= 0 && before[row + rule] !== codes[row + rule])) {
      out[row + c] = v;
      continue;
    }
    const span = s.span[c]!;
    let d = v - before[row + c]!;
    if (d < -span / 2) d += span;
    else if (d >= span / 2) d -= span;
    const p = (v + Math.round((d * b.ahead) / b.apart)) % span;
    out[row + c] = p < 0 ? p + span : p;
  }
}

/** Writes `state`'s body against `b` (no base: a full snapshot). */
export function encodeBody(format: WireFormat, state: SnapshotCodes, b: Baselines, w: BitWriter, s: DeltaScratch): void {
  const C = format.codesPerEntity;
  const bitsOf = format.codeBits;
  const fieldCodes = format.fieldCodes;
  const fields = format.layout.fields.length;
  const count = state.count;
  const base = b.base;
  const baseCount = base === null ? 0 : Math.min(base.count, count);
  const codes = state.codes;
  const refs = s.refs;
  let n = 0;
  // pass 1: what changed from its reference, and by how much
  for (let i = 0; i < count; i++) {
    const inBase = i < baseCount;
    let flags = state.generation[i]! !== (inBase ? base!.generation[i]! : 0) ? 1 : 0;
    const row = i * C;
    reference(format, s, b, i, count, refs);
    for (let f = 0; f < fields; f++) {
      let fieldChanged = false;
      for (let c = fieldCodes[f]!; c < fieldCodes[f + 1]!; c++) {
        const z = zigzag(codes[row + c]!, refs[row + c]!, s.span[c]!);
        s.zz[row + c] = z;
        if (z !== 0) fieldChanged = true;
      }
      if (fieldChanged) flags |= 1 << (f + 1);
    }
    s.flags[i] = flags;
    if (flags !== 0) s.changed[n++] = i;
  }
  // the cheapest Rice parameter of each code over the changed fields: from the mean, then its neighbours
  for (let c = 0; c < C; c++) {
    const f = fieldOf(fieldCodes, c);
    let sum = 0;
    let m = 0;
    for (let j = 0; j < n; j++) {
      const i = s.changed[j]!;
      if ((s.flags[i]! & (1 << (f + 1))) === 0) continue;
      sum += s.zz[i * C + c]!;
      m++;
    }
    const bits = bitsOf[c]!;
    const guess = m === 0 || sum === 0 ? 0 : Math.max(0, Math.min(bits, 31, Math.round(Math.log2((sum / m) * Math.LN2))));
    // the guess and its two neighbours, costed in one pass
    const k0 = Math.max(0, guess - 1);
    const k2 = Math.min(bits, 31, guess + 1);
    const d0 = 2 ** k0;
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    const bit = 1 << (f + 1);
    for (let j = 0; j < n; j++) {
      const i = s.changed[j]!;
      if ((s.flags[i]! & bit) === 0) continue;
      const q = Math.floor(s.zz[i * C + c]! / d0);
      c0 += q >= RICE_ESCAPE ? RICE_ESCAPE + bits : q + 1 + k0;
      const q1 = Math.floor(q / 2);
      c1 += q1 >= RICE_ESCAPE ? RICE_ESCAPE + bits : q1 + 2 + k0;
      const q2 = Math.floor(q / 4);
      c2 += q2 >= RICE_ESCAPE ? RICE_ESCAPE + bits : q2 + 3 + k0;
    }
    // k0, k0 + 1, k0 + 2 (those past k2 are not candidates)
    let best = k0;
    let bestCost = c0;
    if (k0 + 1 <= k2 && c1 < bestCost) {
      best = k0 + 1;
      bestCost = c1;
    }
    if (k0 + 2 <= k2 && c2 < bestCost) best = k0 + 2;
    s.k[c] = best;
    w.bits(best, K_BITS);
  }
  // pass 2: the changed set, the shorter way
  let gapSum = 0;
  for (let j = 0; j < n; j++) gapSum += s.changed[j]! - (j === 0 ? -1 : s.changed[j - 1]!) - 1;
  const gapK = n === 0 || gapSum === 0 ? 0 : Math.max(0, Math.min(31, Math.round(Math.log2((gapSum / n) * Math.LN2))));
  let listCost = 2 * (31 - Math.clz32(n + 1)) + 1 + K_BITS;
  for (let j = 0; j < n && listCost <= count; j++) listCost += riceCost(s.changed[j]! - (j === 0 ? -1 : s.changed[j - 1]!) - 1, gapK, 32);
  if (listCost < count) {
    w.bit(true);
    w.gamma(n + 1);
    w.bits(gapK, K_BITS);
    for (let j = 0; j < n; j++) w.rice(s.changed[j]! - (j === 0 ? -1 : s.changed[j - 1]!) - 1, gapK, 32);
  } else {
    w.bit(false);
    let j = 0;
    for (let i = 0; i < count; i++) {
      const hit = j < n && s.changed[j] === i;
      w.bit(hit);
      if (hit) j++;
    }
  }
  // the changes
  for (let j = 0; j < n; j++) {
    const i = s.changed[j]!;
    const flags = s.flags[i]!;
    w.bit((flags & 1) !== 0);
    if ((flags & 1) !== 0) w.bits(state.generation[i]!, 32);
    for (let f = 0; f < fields; f++) {
      const on = (flags & (1 << (f + 1))) !== 0;
      w.bit(on);
      if (!on) continue;
      for (let c = fieldCodes[f]!; c < fieldCodes[f + 1]!; c++) w.rice(s.zz[i * C + c]!, s.k[c]!, bitsOf[c]!);
    }
  }
  const words = state.gameWords;
  for (let g = 0; g < format.gameValues; g++) {
    const lo = words[2 * g]!;
    const hi = words[2 * g + 1]!;
    const changed = base === null ? lo !== 0 || hi !== 0 : lo !== base.gameWords[2 * g] || hi !== base.gameWords[2 * g + 1];
    w.bit(changed);
    if (changed) {
      w.bits(lo, 32);
      w.bits(hi, 32);
    }
  }
}

/** The field a code belongs to. */
function fieldOf(fieldCodes: Uint16Array, c: number): number {
  let f = 0;
  while (fieldCodes[f + 1]! <= c) f++;
  return f;
}

/**
 * Reads a body of `count` entities against `base` (null: a full snapshot) into `out`. Throws `WireError` for a
 * body that does not read as one: every index checked against `count`, every read against the body's end.
 */
export function decodeBody(format: WireFormat, r: BitReader, count: number, b: Baselines, out: SnapshotCodes, s: DeltaScratch): void {
  const k = s.k;
  const C = format.codesPerEntity;
  const bitsOf = format.codeBits;
  const fieldCodes = format.fieldCodes;
  const fields = format.layout.fields.length;
  const base = b.base;
  const baseCount = base === null ? 0 : Math.min(base.count, count);
  const codes = out.codes;
  // every entity's reference first: an unchanged one is its reference
  for (let i = 0; i < count; i++) reference(format, s, b, i, count, codes);
  if (base !== null) {
    out.generation.set(base.generation.subarray(0, baseCount));
    out.game.set(base.game);
  } else {
    out.game.fill(0);
  }
  out.generation.fill(0, baseCount, count);
  out.count = count;
  for (let c = 0; c < C; c++) k[c] = r.bits(K_BITS);
  const change = (i: number): void => {
    const row = i * C;
    if (r.bit()) out.generation[i] = r.bits(32);
    for (let f = 0; f < fields; f++) {
      if (!r.bit()) continue;
      for (let c = fieldCodes[f]!; c < fieldCodes[f + 1]!; c++) codes[row + c] = unzigzag(r.rice(k[c]!, bitsOf[c]!), codes[row + c]!, s.span[c]!);
    }
  };
  if (r.bit()) {
    const n = r.gamma() - 1;
    if (n > count) throw new WireError('count', `${n} changed entities in a snapshot of ${count}`);
    const gapK = r.bits(K_BITS);
    // the indices first (they come before the changes), checked in order
    const changed = s.changed;
    let i = -1;
    for (let j = 0; j < n; j++) {
      i += r.rice(gapK, 32) + 1;
      if (i >= count) throw new WireError('count', `a changed entity's index ${i} past the snapshot's ${count}`);
      changed[j] = i;
    }
    for (let j = 0; j < n; j++) change(changed[j]!);
  } else {
    if (r.remaining < count) throw new WireError('truncated', `a bitmap of ${count} entities in ${r.remaining} bits`);
    const changed = s.changed;
    let n = 0;
    for (let i = 0; i < count; i++) if (r.bit()) changed[n++] = i;
    for (let j = 0; j < n; j++) change(changed[j]!);
  }
  const words = out.gameWords;
  for (let g = 0; g < format.gameValues; g++) {
    if (!r.bit()) continue;
    words[2 * g] = r.bits(32);
    words[2 * g + 1] = r.bits(32);
  }
}
