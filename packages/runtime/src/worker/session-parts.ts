/**
 * Recording, replay, playback and snapshots: what a simulation needs only when a session is recorded, replayed
 * or saved. `Simulation` imports this module on demand (the first `record`, `replay`, `play`, `snapshot` or
 * `restore`), so a bundled worker that never calls them never loads their code: a chunk of its own, with the
 * recording format (core/recording.ts) and the event digest.
 */
export { Playback } from './playback.ts';
export { Recorder } from './recorder.ts';
export { replayRecording } from './replay.ts';
export { restoreSnapshot, takeSnapshot } from './snapshot.ts';
