/**
 * The catch-up wait of a rendered frame (the decision is core/frame-catch-up.ts's; ARCHITECTURE.md, "Frames that
 * come later than announced"): a frame the sleeping worker falls short of rings it with its own time and waits,
 * bounded, until the worker's states reach it. The wait is the page host's (`PageHost.waitFor`): a spin on a
 * browser page, a settle on a manual clock. Counts what it did in `FrameClockStats`.
 */
import type { FrameClockStats } from '../contracts/app.ts';
import type { PageHost } from '../contracts/host.ts';
import type { PageTransport } from '../contracts/transport.ts';
import type { Clock } from '../core/clock.ts';
import { CATCH_UP_BACKOFF_MS, CATCH_UP_GIVE_UP, CATCH_UP_MAX_BACKOFF_MS, CATCH_UP_WAIT_MS, needsCatchUp } from '../core/frame-catch-up.ts';
import { FRAME_HOLD_MS } from '../core/fixed-step.ts';
import { I32, META, STATUS } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';

/** A frame this far from its announced time counts as unannounced, ms (float rounding and clock steps aside). */
const ANNOUNCED_SLACK_MS = 1;

export class CatchUpWait<S extends Schema> {
  readonly stats: FrameClockStats = { outsideFrames: 0, unannounced: 0, maxOffsetMs: 0, waits: 0, waitMs: 0, maxWaitMs: 0, timeouts: 0, unwaited: 0, unheld: 0, announced: 0, rings: 0 };
  /** No waits before this time (after CATCH_UP_GIVE_UP in a row gave up). */
  #waitAgainAt = Number.NEGATIVE_INFINITY;
  /** Waits in a row that gave up. */
  #timeoutsInRow = 0;
  /** How long the next spell without waits lasts, ms (doubles while the probes after them give up). */
  #backoffMs = CATCH_UP_BACKOFF_MS;
  /** The next wait is the probe after a spell: if it gives up, the next spell begins at once. */
  #probing = false;
  /** The frame being waited for, and the publish count last seen, for `#reached` (made once: no closure a frame). */
  #time = 0;
  #published = 0;
  readonly #reached = (): boolean => {
    const covered = this.transport.covered!;
    // COVERED is stored (Atomics) after the publish's flip: once it reaches the frame, the sample's acquire
    // sees the states; a worker that publishes but does not go back to sleep is seen through the front slot
    if (covered() >= this.#time) return true;
    const count = this.transport.source.publishCount();
    if (count === this.#published) return false;
    this.#published = count;
    return this.frontReaches(this.#time);
  };

  constructor(
    private readonly transport: PageTransport<S>,
    private readonly now: Clock,
    private readonly waitFor: PageHost['waitFor'],
    /** Announces a frame time to the worker (ringing it when it needs to know): the frame loop's. */
    private readonly announce: (time: number) => void,
  ) {}

  /**
   * A rendered frame at `time`, announced as `expected`: counts how far apart they are, and if the worker sleeps
   * short of it, rings the worker with `time` and waits until its states reach it or CATCH_UP_WAIT_MS pass.
   * `skip`: the page is hidden or the worker unresponsive (no states are coming). Allocates nothing; where the
   * transport has no COVERED (states arrive as messages) it only counts.
   */
  run(time: number, expected: number, skip: boolean): void {
    const stats = this.stats;
    const offset = time - expected;
    if (offset > ANNOUNCED_SLACK_MS || offset < -ANNOUNCED_SLACK_MS) {
      stats.unannounced++;
      if (Math.abs(offset) > Math.abs(stats.maxOffsetMs)) stats.maxOffsetMs = offset;
    }
    const covered = this.transport.covered;
    if (covered === undefined || skip) return;
    const start = this.now();
    const reach = covered();
    if (!needsCatchUp(time, start, reach)) {
      if (!(reach >= time) && start - time > FRAME_HOLD_MS) stats.unheld++;
      return;
    }
    // only a running worker makes states (a paused, stopped or faulted one holds its tick on purpose)
    if (Atomics.load(this.transport.header, I32.STATUS) !== STATUS.RUNNING) return;
    this.#published = this.transport.source.publishCount();
    // an awake worker may be past the frame already
    if (this.frontReaches(time)) return;
    if (start < this.#waitAgainAt) {
      stats.unwaited++; // drawn late: waits are off after several gave up; the ring still serves later frames
      this.announce(time);
      return;
    }
    // rings it (the frame is past what it covers): it targets `time`, overdue, so it holds there, not past it
    this.announce(time);
    this.#time = time;
    let reached = this.waitFor(this.#reached, start + CATCH_UP_WAIT_MS, this.now);
    // once more after the deadline: this thread may have been preempted through it while the worker went on
    if (!reached) reached = covered() >= time || this.frontReaches(time);
    const waited = this.now() - start;
    stats.waits++;
    stats.waitMs += waited;
    if (waited > stats.maxWaitMs) stats.maxWaitMs = waited;
    if (reached) {
      this.#timeoutsInRow = 0;
      this.#probing = false;
      this.#backoffMs = CATCH_UP_BACKOFF_MS;
    } else {
      stats.timeouts++;
      if (this.#probing || ++this.#timeoutsInRow >= CATCH_UP_GIVE_UP) {
        // a worker that cannot keep up: no waits for a spell, each longer than the last while the probes give up
        if (this.#probing) this.#backoffMs = Math.min(2 * this.#backoffMs, CATCH_UP_MAX_BACKOFF_MS);
        this.#timeoutsInRow = 0;
        this.#probing = true;
        this.#waitAgainAt = this.now() + this.#backoffMs;
      }
    }
  }

  /** Whether the front slot's newest state is at or past `time` (a look under the lock). */
  frontReaches(time: number): boolean {
    const source = this.transport.source;
    const slot = source.acquire();
    if (slot === null) return false;
    const current = slot.metaWords[META.CUR_TIME]!;
    source.release();
    return current >= time;
  }
}
