/**
 * A manual clock on which the page's work takes time: `work(ms)` inside an animation frame (a draw that costs
 * 30 ms) moves the page's clock on at once, as a main thread busy that long finds it; the worker's clock follows
 * at the next `advance`, which folds the work in (the worker, on its own thread, saw nothing happen meanwhile
 * but the time pass). For the pacer, which sizes the render interval by what frames cost.
 */
import { ManualClock } from 'steadyframe/node';

export class WorkClock extends ManualClock {
  /** Ms the page's clock stands ahead of the shared one: work done since the last advance. */
  #ahead = 0;

  override now(): number {
    return super.now() + this.#ahead;
  }

  /** The page is busy for `ms`: its clock moves on now; the shared clock at the next advance. */
  work(ms: number): void {
    this.#ahead += ms;
  }

  override advance(ms: number): Promise<void> {
    const ahead = this.#ahead;
    this.#ahead = 0;
    return super.advance(ahead + ms);
  }

  override advanceTo(time: number): Promise<void> {
    return this.advance(Math.max(0, time - this.now()));
  }
}
