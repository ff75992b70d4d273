/**
 * A sparkline: the last few seconds of one or more series, drawn into a small canvas, newest at the right.
 * Samples carry their own times, so a series sampled per frame and one sampled per tick share the time axis.
 * The y range follows the data (growing at once, shrinking slowly, so the picture does not breathe).
 * `spans` draws each sample as a full-height band from its time for `value` ms (an event that lasts: a slow
 * frame), off the y scale.
 * `push` allocates nothing; `draw` only strokes paths.
 */
export type SeriesStyle = 'line' | 'step' | 'bars' | 'dots' | 'signed' | 'spans';

export interface SeriesSpec {
  readonly color: string;
  readonly style: SeriesStyle;
  /** For `signed`: the colour of values above zero (the bad side). */
  readonly above?: string;
}

export interface PlotOptions {
  readonly series: readonly SeriesSpec[];
  /** Ms of history across the plot's width. Default 5000. */
  readonly span?: number;
  /** The y range always includes [min, max]; with `fixed`, it is exactly that. */
  readonly min: number;
  readonly max: number;
  readonly fixed?: boolean;
  /** Dashed horizontal guides, e.g. a 16.7 ms frame or 0. */
  readonly guides?: readonly number[];
  /** A label written at each guide's left end (the plot's only y scale). */
  readonly guideLabel?: (value: number) => string;
}

/** One series' samples within the plot's span, oldest first: what the plot draws (for tests and the curious). */
export interface SeriesData {
  readonly times: number[];
  readonly values: number[];
}

/** Enough for 5 s of 120 fps frames, or of ticks at 240 Hz. */
const RING_LENGTH = 1024;

class Ring {
  readonly values = new Float32Array(RING_LENGTH);
  readonly times = new Float64Array(RING_LENGTH);
  count = 0;
  head = 0;
  push(time: number, value: number): void {
    this.values[this.head] = value;
    this.times[this.head] = time;
    this.head = (this.head + 1) % RING_LENGTH;
    if (this.count < RING_LENGTH) this.count++;
  }
  #index(i: number): number {
    return (this.head - this.count + i + RING_LENGTH) % RING_LENGTH;
  }
  /** The i-th oldest kept value, and its time. */
  at(i: number): number {
    return this.values[this.#index(i)]!;
  }
  timeAt(i: number): number {
    return this.times[this.#index(i)]!;
  }
  /** Index of the oldest sample at or after `time`. */
  firstSince(time: number): number {
    let i = this.count;
    while (i > 0 && this.timeAt(i - 1) >= time) i--;
    return i;
  }
}

export class Plot {
  readonly #ctx: CanvasRenderingContext2D;
  readonly #canvas: HTMLCanvasElement;
  readonly #rings: Ring[];
  readonly #options: PlotOptions;
  readonly #span: number;
  #low: number;
  #high: number;

  constructor(canvas: HTMLCanvasElement, options: PlotOptions) {
    this.#canvas = canvas;
    this.#ctx = canvas.getContext('2d')!;
    this.#options = options;
    this.#span = options.span ?? 5000;
    this.#rings = options.series.map(() => new Ring());
    this.#low = options.min;
    this.#high = options.max;
  }

  /** A sample of `series` at page time `time` (ms, performance.now()'s clock). */
  push(series: number, time: number, value: number): void {
    if (Number.isFinite(value)) this.#rings[series]!.push(time, value);
  }

  /** The newest value of a series (NaN before the first). */
  latest(series: number): number {
    const ring = this.#rings[series]!;
    return ring.count === 0 ? Number.NaN : ring.at(ring.count - 1);
  }

  /** The samples of every series that `draw(now)` would draw. Allocates: not for the frame loop. */
  data(now: number): SeriesData[] {
    const since = now - this.#span;
    return this.#rings.map((ring) => {
      const times: number[] = [];
      const values: number[] = [];
      for (let i = ring.firstSince(since); i < ring.count; i++) {
        times.push(ring.timeAt(i));
        values.push(ring.at(i));
      }
      return { times, values };
    });
  }

  /** Draws the span of history that ends at `now`. */
  draw(now: number): void {
    const canvas = this.#canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const ctx = this.#ctx;
    ctx.clearRect(0, 0, width, height);
    const since = now - this.#span;
    this.#fitRange(since);
    const low = this.#low;
    const range = this.#high - low || 1;
    const pad = 2 * ratio;
    const y = (v: number) => pad + (height - 2 * pad) * (1 - (v - low) / range);
    const perMs = width / this.#span;
    const x = (time: number) => width - (now - time) * perMs;

    ctx.lineWidth = ratio;
    ctx.setLineDash([3 * ratio, 3 * ratio]);
    ctx.strokeStyle = '#ffffff30';
    for (const guide of this.#options.guides ?? []) {
      if (guide < low || guide > this.#high) continue;
      ctx.beginPath();
      ctx.moveTo(0, y(guide));
      ctx.lineTo(width, y(guide));
      ctx.stroke();
    }
    ctx.setLineDash([]);
    const label = this.#options.guideLabel;
    if (label !== undefined) {
      ctx.font = `${9 * ratio}px system-ui, sans-serif`;
      ctx.fillStyle = '#ffffff70';
      ctx.textBaseline = 'middle';
      for (const guide of this.#options.guides ?? []) {
        if (guide >= low && guide <= this.#high) ctx.fillText(label(guide), 2 * ratio, Math.min(Math.max(y(guide), 5 * ratio), height - 5 * ratio));
      }
    }

    this.#options.series.forEach((spec, s) => {
      const ring = this.#rings[s]!;
      const n = ring.count;
      const first = ring.firstSince(since);
      if (first >= n) return;
      ctx.fillStyle = spec.color;
      ctx.strokeStyle = spec.color;
      ctx.lineWidth = 1.5 * ratio;
      if (spec.style === 'bars' || spec.style === 'signed') {
        const zero = y(Math.min(Math.max(0, low), this.#high));
        for (let i = first; i < n; i++) {
          const v = ring.at(i);
          const top = y(v);
          const right = x(ring.timeAt(i));
          // a bar reaches back to the sample before it, less a gap when there is room for one
          const gap = i > 0 ? right - x(ring.timeAt(i - 1)) : 2 * ratio;
          const barWidth = Math.max(ratio, gap > 3 * ratio ? gap - ratio : gap);
          if (spec.style === 'signed') ctx.fillStyle = v > 0 ? (spec.above ?? spec.color) : spec.color;
          ctx.fillRect(right - barWidth, Math.min(top, zero), barWidth, Math.max(ratio, Math.abs(zero - top)));
        }
        return;
      }
      if (spec.style === 'spans') {
        for (let i = first; i < n; i++) {
          const from = x(ring.timeAt(i));
          const to = Math.max(from + 2 * ratio, x(ring.timeAt(i) + ring.at(i)));
          ctx.globalAlpha = 0.35;
          ctx.fillRect(from, 0, to - from, height);
          ctx.globalAlpha = 1;
          ctx.fillRect(from, 0, ratio, height);
        }
        return;
      }
      if (spec.style === 'dots') {
        const r = 1.6 * ratio;
        for (let i = first; i < n; i++) ctx.fillRect(x(ring.timeAt(i)) - r, y(ring.at(i)) - r, 2 * r, 2 * r);
        return;
      }
      ctx.beginPath();
      ctx.moveTo(x(ring.timeAt(first)), y(ring.at(first)));
      for (let i = first + 1; i < n; i++) {
        if (spec.style === 'step') ctx.lineTo(x(ring.timeAt(i)), y(ring.at(i - 1)));
        ctx.lineTo(x(ring.timeAt(i)), y(ring.at(i)));
      }
      if (spec.style === 'step') ctx.lineTo(width, y(ring.at(n - 1)));
      ctx.stroke();
    });
  }

  /** Grows the range at once to fit the data, shrinks it back slowly toward [min, max]. */
  #fitRange(since: number): void {
    const { min, max, fixed } = this.#options;
    if (fixed === true) return;
    let low = min;
    let high = max;
    for (let s = 0; s < this.#rings.length; s++) {
      if (this.#options.series[s]!.style === 'spans') continue; // events: their values are durations, off the y scale
      const ring = this.#rings[s]!;
      for (let i = ring.firstSince(since); i < ring.count; i++) {
        const v = ring.at(i);
        if (v < low) low = v;
        if (v > high) high = v;
      }
    }
    this.#low = low < this.#low ? low : this.#low + (low - this.#low) * 0.05;
    this.#high = high > this.#high ? high : this.#high + (high - this.#high) * 0.05;
  }
}
