/** A runtime's record, replay, playback and snapshot calls (ARCHITECTURE.md, "Record and replay"). */
import type { RecordOptions, ReplayReport } from './remote.ts';

export interface SessionControls {
  /**
   * Starts recording the session (ARCHITECTURE.md, "Record and replay"): from the state as it stands, every tick's
   * times, input events and state hash, with the setup (as JSON), the seed and the generator's state, the changes
   * of tick rate and time scale, restarts and faults. Started before the first step, the replay runs `init`.
   */
  record(options?: RecordOptions): Promise<void>;
  /** Stops recording and returns the recording (a `.sfr` file's bytes). */
  stopRecording(): Promise<Uint8Array>;
  /**
   * Replays a recording on this runtime's simulation, held (never started, or stopped), as fast as the CPU goes,
   * and reports whether every tick came out as recorded. The runtime needs the recording's schema and capacity.
   * In Node: `replayRecording` (steadyframe/node) makes the runtime from the recording itself.
   */
  replay(recording: Uint8Array): Promise<ReplayReport>;
  /**
   * Plays a recording back live, to watch it: the simulation is set to the recording's start, then each tick's
   * step is the recording's next one (its recorded times, input events and generator; its hash checked), paced at
   * the recorded tick rate and time scale and drawn like any run. The page's own input is ignored meanwhile.
   * Starts the frames as `start()` does. Resolves at the recording's end, where the simulation pauses on its last
   * state (`restart('scratch')` plays live again), or when `restart`, `restore`, `replay` or another `play`
   * cuts it short (`complete: false`). The runtime needs the recording's schema and capacity.
   */
  play(recording: Uint8Array): Promise<ReplayReport>;
  /**
   * The whole simulation between two ticks, as bytes (a recording with no ticks, ARCHITECTURE.md, "Record and
   * replay"): the world's live entities with their private fields and generations, the generator, the seed and
   * setup, tick rate, time scale and simulated time, and the simulation's own state when its definition has
   * `save`/`load` (a physics engine's world, a game's counters). A recording started later carries one as its start.
   */
  snapshot(): Promise<Uint8Array>;
  /**
   * Puts a snapshot back (this runtime's or another's of the same worker module, schema and capacity): every
   * entity snaps to it, tick numbers go on, and the simulation runs on from it if the runtime was started.
   */
  restore(snapshot: Uint8Array): Promise<void>;
}
