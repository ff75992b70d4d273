/**
 * Quantisation: how a per-entity field travels on the network wire (net/delta-body.ts), declared in the schema
 * (`quantize` on the field). A quantised field crosses as whole-number codes of a few bits each; the client draws
 * `dequantise(quantise(v))`, which the server can compute too, so both ends agree on the values bit for bit. A
 * field without `quantize` crosses as its float32 bits, exactly.
 *
 * | kind                 | `quantize`                        | a component's code                                   |
 * |----------------------|-----------------------------------|------------------------------------------------------|
 * | `linear`, `none`     | `{ min, max, precision }`         | round((v − min) / precision), 0 to ⌈(max − min) / precision⌉ |
 * | `linear`, `none`     | `{ min, max, bits }`              | the range in 2^bits − 1 steps                        |
 * | `angle`              | `{ bits }`                        | a turn in 2^bits steps (wraps: 2π + a is a)          |
 * | `quaternion`         | `{ bits }`                        | smallest three: the largest component's index (2 bits), the other three in [−1/√2, 1/√2] in 2^bits − 2 steps (0 exact), the largest made positive (q and −q are one rotation) and rebuilt as √(1 − a² − b² − c²) |
 *
 * Values outside the range clamp to it; NaN becomes the code 0 (a quaternion's: the identity). A code is at most
 * MAX_QUANTIZE_BITS bits (a quaternion's three at most MAX_QUATERNION_BITS each, Gaffer on Games' 9 is 29 bits
 * for a rotation).
 */

/** A `linear` or `none` field's quantisation: a range, in steps of `precision` or in 2^bits − 1 steps. */
export type RangeQuantize =
  | { readonly min: number; readonly max: number; readonly precision: number; readonly bits?: undefined }
  | { readonly min: number; readonly max: number; readonly bits: number; readonly precision?: undefined };
/** An `angle`'s (a turn in 2^bits steps) or a `quaternion`'s (smallest three, bits each) quantisation. */
export type BitsQuantize = { readonly bits: number; readonly min?: undefined; readonly max?: undefined; readonly precision?: undefined };
/** A field's quantisation (see the table above). */
export type Quantize = RangeQuantize | BitsQuantize;

export const MAX_QUANTIZE_BITS = 30;
export const MAX_QUATERNION_BITS = 15;

/**
 * Checks field `name`'s `quantize` against its kind. Throws at set-up, naming the field and the fix.
 */
export function validateQuantize(name: string, kind: string, quantize: unknown): void {
  const what = `steadyframe: schema field "${name}"'s quantize`;
  if (typeof quantize !== 'object' || quantize === null) throw new TypeError(`${what} must be an object: { min, max, precision } or { min, max, bits }, or { bits } for an angle or quaternion`);
  const { min, max, precision, bits } = quantize as { min?: unknown; max?: unknown; precision?: unknown; bits?: unknown };
  const wholeBits = (most: number): void => {
    if (typeof bits !== 'number' || !Number.isInteger(bits) || bits < 1 || bits > most) throw new TypeError(`${what} has bits ${String(bits)}; use a whole number from 1 to ${most}`);
  };
  if (kind === 'angle' || kind === 'quaternion') {
    if (min !== undefined || max !== undefined || precision !== undefined) throw new TypeError(`${what}: an ${kind} is quantised by bits alone ({ bits }), not by a range`);
    wholeBits(kind === 'angle' ? MAX_QUANTIZE_BITS : MAX_QUATERNION_BITS);
    if (kind === 'quaternion' && (bits as number) < 2) throw new TypeError(`${what} has bits 1; a quaternion's components need at least 2`);
    return;
  }
  if (typeof min !== 'number' || typeof max !== 'number' || !Number.isFinite(min) || !Number.isFinite(max) || !(max > min)) {
    throw new TypeError(`${what} needs a finite range, min below max; got min ${String(min)}, max ${String(max)}`);
  }
  if ((precision === undefined) === (bits === undefined)) throw new TypeError(`${what} takes precision (the step) or bits (the range in 2^bits − 1 steps): one of them`);
  if (bits !== undefined) return wholeBits(MAX_QUANTIZE_BITS);
  if (typeof precision !== 'number' || !(precision > 0) || !Number.isFinite(precision)) throw new TypeError(`${what} has precision ${String(precision)}; a step is a finite number above 0`);
  const steps = Math.ceil((max - min) / precision - 1e-9);
  if (steps > 2 ** MAX_QUANTIZE_BITS - 1) {
    throw new TypeError(`${what} has ${steps} steps of ${precision} from ${min} to ${max}, more than ${MAX_QUANTIZE_BITS} bits hold: a coarser precision or a smaller range`);
  }
}

/** How one field's values become codes and back. */
export interface FieldQuantizer {
  /** Codes an entity's value takes (its width; a quaternion's 4: index and three). */
  readonly codes: number;
  /** Bits of each code: 32 for a component sent as its float32 bits. */
  readonly bits: readonly number[];
  /**
   * Entity value at `values[at]` .. (`raw` the same memory as uint32) as codes into `out[to]` ...
   */
  encode(values: Float32Array, raw: Uint32Array, at: number, out: Uint32Array, to: number): void;
  /** Codes at `codes[from]` .. back to the value at `values[at]` ... */
  decode(codes: Uint32Array, from: number, values: Float32Array, raw: Uint32Array, at: number): void;
}

const TURN = 2 * Math.PI;
const HALF_SQRT2 = Math.SQRT1_2;

/** A field as its quantiser needs it (a layout's FieldLayout is one). */
export interface QuantizedField {
  readonly name: string;
  readonly kind: string;
  readonly width: number;
  readonly quantize: Quantize | undefined;
}

/** The quantiser of a field of the layout. */
export function fieldQuantizer(field: QuantizedField): FieldQuantizer {
  const q = field.quantize;
  const width = field.width;
  if (q === undefined) {
    return {
      codes: width,
      bits: new Array<number>(width).fill(32),
      encode: (_values, raw, at, out, to) => {
        for (let c = 0; c < width; c++) out[to + c] = raw[at + c]!;
      },
      decode: (codes, from, _values, raw, at) => {
        for (let c = 0; c < width; c++) raw[at + c] = codes[from + c]!;
      },
    };
  }
  if (field.kind === 'angle') {
    const bits = q.bits!;
    const steps = 2 ** bits;
    const mask = steps - 1;
    return {
      codes: 1,
      bits: [bits],
      encode: (values, _raw, at, out, to) => {
        const v = values[at]!;
        // a whole number of steps from 0, wrapped into one turn (NaN: 0)
        const r = Math.round((v / TURN) * steps);
        out[to] = Number.isFinite(r) ? ((r % steps) + steps) & mask : 0;
      },
      decode: (codes, from, values, _raw, at) => {
        const code = codes[from]! & mask;
        // (−π, π]
        values[at] = (code > steps / 2 ? code - steps : code) * (TURN / steps);
      },
    };
  }
  if (field.kind === 'quaternion') {
    const bits = q.bits!;
    const top = 2 ** bits - 2; // an even number of steps: 0 is a code (the middle one)
    const scale = top / (2 * HALF_SQRT2);
    const code = (v: number): number => Math.min(top, Math.max(0, Math.round((v + HALF_SQRT2) * scale)));
    return {
      codes: 4,
      bits: [2, bits, bits, bits],
      encode: (values, _raw, at, out, to) => {
        let largest = 3;
        let size = -1;
        for (let c = 0; c < 4; c++) {
          const m = Math.abs(values[at + c]!);
          if (m > size) {
            size = m;
            largest = c;
          }
        }
        if (!(size > 0)) {
          // NaN or all zeros: the identity
          out[to] = 3;
          out[to + 1] = out[to + 2] = out[to + 3] = code(0);
          return;
        }
        const sign = values[at + largest]! < 0 ? -1 : 1;
        const norm = sign / Math.hypot(values[at]!, values[at + 1]!, values[at + 2]!, values[at + 3]!);
        out[to] = largest;
        let j = 1;
        for (let c = 0; c < 4; c++) if (c !== largest) out[to + j++] = code(values[at + c]! * norm);
      },
      decode: (codes, from, values, _raw, at) => {
        const largest = codes[from]! & 3;
        let sum = 0;
        let j = 1;
        for (let c = 0; c < 4; c++) {
          if (c === largest) continue;
          const v = Math.min(top, codes[from + j++]!) / scale - HALF_SQRT2;
          values[at + c] = v;
          sum += v * v;
        }
        values[at + largest] = Math.sqrt(Math.max(0, 1 - sum));
      },
    };
  }
  const { min, max } = q as { min: number; max: number };
  const top = q.bits !== undefined ? 2 ** q.bits - 1 : Math.ceil((max - min) / q.precision! - 1e-9);
  const step = q.bits !== undefined ? (max - min) / top : q.precision!;
  const bits = Math.max(1, Math.ceil(Math.log2(top + 1)));
  return {
    codes: width,
    bits: new Array<number>(width).fill(bits),
    encode: (values, _raw, at, out, to) => {
      for (let c = 0; c < width; c++) {
        const r = Math.round((values[at + c]! - min) / step);
        out[to + c] = r > 0 ? Math.min(r, top) : 0; // NaN and below: 0
      }
    },
    decode: (codes, from, values, _raw, at) => {
      for (let c = 0; c < width; c++) values[at + c] = min + Math.min(codes[from + c]!, top) * step;
    },
  };
}

/** A string saying how every field is quantised, for the wire's hash ('' when none is). */
export function quantizeSignature(fields: readonly QuantizedField[]): string {
  return fields
    .filter((f) => f.quantize !== undefined)
    .map((f) => `${f.name}~${JSON.stringify(f.quantize)}`)
    .join(';');
}
