/**
 * Playback (`runtime.play(recording)`): a recording watched live. The simulation is set to the recording's
 * start (worker/replay.ts, `ReplayRun`), then runs as it always does, its loop paced at the recorded tick rate
 * and time scale, publishing every tick, but each tick's step is the recording's next one: its recorded times,
 * input events and generator, its hash checked. The page draws it like any run; its own input is drained and
 * left. At the recording's end the simulation pauses and `play()` resolves with the report.
 *
 * ```text
 *  playStart ── ReplayRun: setup, seed, init or the start state ── publish (every entity snaps) ── RUNNING
 *  loop ── runTick ── playback.step(): the next recorded tick's step, hashed ── publish ── ... ── end: PAUSED
 *  cut short by restart, restore, replay or another play: the report so far (complete: false)
 * ```
 */
import type { ReplayReport } from '../contracts/remote.ts';
import type { Schema } from '../core/schema.ts';
import { ReplayRun } from './replay.ts';
import type { Attached, SimulationState, TickPlayback } from './state.ts';

export class Playback<S extends Schema> implements TickPlayback {
  readonly #run: ReplayRun<S>;
  readonly #started = performance.now();
  #resolve: (report: ReplayReport) => void = () => {};
  /** Settles when the playback ends, whichever way. */
  readonly ended = new Promise<ReplayReport>((resolve) => (this.#resolve = resolve));

  constructor(state: SimulationState<S>, a: Attached<S>, recording: Uint8Array) {
    this.#run = new ReplayRun(state, a, recording, true);
  }

  step(): boolean {
    return this.#run.next();
  }

  end(): void {
    this.#run.report.ms = performance.now() - this.#started;
    this.#resolve(this.#run.report);
  }
}
