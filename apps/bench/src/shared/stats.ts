/** Summaries of repeated samples: the median and the min-max spread, and percentiles of one sample's values. */

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Samples summarised. */
  readonly n: number;
}

/** The q-quantile (0..1) of values sorted ascending, linearly interpolated; NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

export function sorted(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

export function quantile(values: ArrayLike<number>, q: number): number {
  return quantileSorted(sorted(values), q);
}

/** Median and min-max of repeated samples (NaN samples are left out). */
export function spread(samples: readonly number[]): Spread {
  const s = sorted(samples.filter((x) => !Number.isNaN(x)));
  return { median: quantileSorted(s, 0.5), min: s.length > 0 ? s[0]! : Number.NaN, max: s.length > 0 ? s[s.length - 1]! : Number.NaN, n: s.length };
}

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly n: number;
}

export function percentiles(values: ArrayLike<number>): Percentiles {
  const s = sorted(values);
  return { p50: quantileSorted(s, 0.5), p99: quantileSorted(s, 0.99), max: s.length > 0 ? s[s.length - 1]! : Number.NaN, n: s.length };
}
