/** Serving a simulation over comlink: only the contract's calls cross the thread boundary. */
import { expose, transfer, type Endpoint } from 'comlink';
import type { SimulationRemote } from '../contracts/remote.ts';
import type { Schema } from '../core/schema.ts';
import type { SimulationDefinition } from './definition.ts';
import type { Simulation } from './simulation.ts';
import type { PrivateFieldSpec } from './world.ts';

/** Serves `simulation` over comlink: the contract's calls, bound to it, and the definition's commands. */
export function serveSimulation<S extends Schema>(simulation: Simulation<S>, definition: SimulationDefinition<S, unknown, PrivateFieldSpec>, endpoint: Endpoint): void {
  // only the contract's calls cross the thread boundary, bound to the simulation
  const remote: SimulationRemote & { commands: object } = {
    // the transport's worker half first (loaded on demand), then the synchronous attach
    attach: async (config) => {
      await simulation.prepare(config);
      return simulation.attach(config);
    },
    clockProbe: () => simulation.clockProbe(),
    setClockOffset: (ms) => simulation.setClockOffset(ms),
    start: () => simulation.start(),
    stop: () => simulation.stop(),
    pause: () => simulation.pause(),
    resume: () => simulation.resume(),
    stepOnce: () => simulation.stepOnce(),
    setTimeScale: (scale) => simulation.setTimeScale(scale),
    setTickRate: (hz) => simulation.setTickRate(hz),
    setHidden: (hidden) => simulation.setHidden(hidden),
    restart: (from) => simulation.restart(from),
    detach: () => simulation.detach(),
    stats: () => simulation.stats(),
    recordStart: (options) => simulation.recordStart(options),
    // the recording moves to the page (no copy): the worker keeps none of it
    recordStop: () => {
      const recording = simulation.recordStop();
      return transfer(recording, [recording.buffer]);
    },
    replay: (recording) => simulation.replay(recording),
    playStart: (recording) => simulation.playStart(recording),
    playEnd: () => simulation.playEnd(),
    snapshot: async () => {
      const snapshot = await simulation.snapshot();
      return transfer(snapshot, [snapshot.buffer]);
    },
    restore: (snapshot) => simulation.restore(snapshot),
    // comlink follows property paths, so runtime.commands.fire(x) calls definition.commands.fire(x) here
    commands: definition.commands ?? {},
  };
  expose(remote, endpoint);
}
