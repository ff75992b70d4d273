/**
 * The delayed-display smoother (ARCHITECTURE.md, Source notes: "The delayed-display smoother"), for values that
 * arrive at irregular times: a camera target, a value from the network, anything a fixed tick produces that a
 * variable frame shows.
 *
 * Shown a little late, such a value can move smoothly: each arrival says "be at `target` in `duration`", and
 * every frame moves the shown value the fraction of the remaining way that this frame's time is of the time
 * still to wait.
 *
 * ```text
 *  insert(50 ms, 10)          tick(16)        tick(16)        tick(16)          tick(16)
 *  value 0, wait 50    ->     16/50 of 0..10   16/34 of ..10   16/18 of ..10     wait 2 <= 16: snap to 10
 *                             value 3.2        value 6.4       value 9.6         value 10
 * ```
 *
 * Semantics, as in the source: `insert` adds the duration to the time still to wait and replaces the target;
 * `tick(delta)` snaps to the target when `delta >= wait`, otherwise moves `delta / wait` of the way and waits
 * `delta` less. One deliberate difference: the source leaves the unspent wait in place after a snap, which would
 * delay the next value by it; here a snap clears it.
 *
 * Pure: no clock. Allocates only at creation.
 */
export class DelayedSmoother {
  /** The smoothed value(s), one per component. Read after `tick`. */
  readonly value: Float64Array;
  readonly #target: Float64Array;
  #wait = 0;

  /** `initial` is the first value (default 0); `width` how many components move together (default 1). */
  constructor(initial: number | ArrayLike<number> = 0, width = typeof initial === 'number' ? 1 : initial.length) {
    if (!Number.isInteger(width) || width < 1) {
      throw new RangeError(`steadyframe: a smoother needs a width of at least 1 component; got ${String(width)}`);
    }
    this.value = new Float64Array(width);
    this.#target = new Float64Array(width);
    if (typeof initial === 'number') this.value.fill(initial);
    else this.value.set(initial);
    this.#target.set(this.value);
  }

  /** Seconds (or any unit, used consistently) still to wait before the value reaches the target. */
  get waiting(): number {
    return this.#wait;
  }

  /** The value the smoother is heading for. */
  get target(): Readonly<Float64Array> {
    return this.#target;
  }

  /** A new target that should be reached after another `duration` (typically one logic tick). */
  insert(duration: number, target: number | ArrayLike<number>): void {
    if (!(duration >= 0) || duration === Number.POSITIVE_INFINITY) {
      throw new RangeError(`steadyframe: insert() needs a finite duration of at least 0; got ${String(duration)}`);
    }
    this.#wait += duration;
    if (typeof target === 'number') this.#target.fill(target);
    else this.#target.set(target);
  }

  /** Moves the value on by a display frame of `delta` and returns the first component. */
  tick(delta: number): number {
    const value = this.value;
    const target = this.#target;
    if (this.#wait <= delta) {
      value.set(target);
      this.#wait = 0;
      return value[0]!;
    }
    const p = delta / this.#wait;
    for (let i = 0; i < value.length; i++) value[i] = value[i]! * (1 - p) + target[i]! * p;
    this.#wait -= delta;
    return value[0]!;
  }
}
