/**
 * The page's watch over the render worker (the simulation worker's is watchdog.ts): silence on the render beat
 * (render-beat.ts) for `timeout` ms while frames are expected (started, page visible) is `renderUnresponsive`,
 * its return `renderResponsive`. A pure step of time: the caller owns the timer and passes the clock reading in.
 *
 * ```text
 *  beat   ─1──2──3──4──────────────────────────────────5──6─▶ FRAMES
 *  check  ──┴──┴──┴──┴────┴────┴────┴────┴────┴────┴───┴──┴─▶ every interval
 *                    └──── silent > timeout ────┘▲          ▲
 *                                     renderUnresponsive   renderResponsive
 * ```
 *
 * Hidden or stopped, the render worker requests no frames: the watch pauses, and measures silence afresh from
 * the first check after frames are expected again (a hidden tab is not a hung renderer). A gap of more than
 * `timeout` between two checks is the page's own timers stopping (a frozen page, a sleeping machine), not the
 * render worker's silence: it too measures silence afresh.
 */
export interface RenderWatchEvents {
  renderUnresponsive: { readonly silentMs: number };
  renderResponsive: { readonly silentMs: number };
}

export class RenderWatch {
  #lastFrames = 0;
  #lastBeatAt = Number.NaN;
  #expected = false;
  #unresponsive = false;
  #lastCheckAt = Number.NEGATIVE_INFINITY;

  constructor(
    /** Frames the render worker finished (BEAT.FRAMES), read fresh on each check. */
    private readonly frames: () => number,
    /** Ms of silence before `renderUnresponsive`; Infinity: never. */
    private readonly timeout: number,
    private readonly emit: <K extends keyof RenderWatchEvents>(type: K, event: RenderWatchEvents[K]) => void,
  ) {}

  /** No frame finished for `timeout` ms while frames were expected, and none since. */
  get unresponsive(): boolean {
    return this.#unresponsive;
  }

  /** Whether frames are expected now (started and visible). Either way, silence is measured afresh. */
  expect(expected: boolean): void {
    this.#expected = expected;
    // (an unresponsive render worker keeps its silence's start: its return reports the whole of it)
    if (!this.#unresponsive) this.#lastBeatAt = Number.NaN;
  }

  check(now: number): void {
    const frames = this.frames();
    const timersStopped = now - this.#lastCheckAt > this.timeout;
    this.#lastCheckAt = now;
    if (frames !== this.#lastFrames) {
      const silentMs = now - this.#lastBeatAt;
      this.#lastFrames = frames;
      this.#lastBeatAt = now;
      if (this.#unresponsive) {
        this.#unresponsive = false;
        this.emit('renderResponsive', { silentMs });
      }
    } else if (!this.#expected) {
      // no frames requested: nothing to miss
    } else if (Number.isNaN(this.#lastBeatAt) || (timersStopped && !this.#unresponsive)) {
      this.#lastBeatAt = now; // the first check since frames are expected, or since the page's timers ran again
    } else if (!this.#unresponsive && now - this.#lastBeatAt > this.timeout) {
      this.#unresponsive = true;
      this.emit('renderUnresponsive', { silentMs: now - this.#lastBeatAt });
    }
  }
}
