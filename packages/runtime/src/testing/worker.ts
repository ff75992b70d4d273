/**
 * steadyframe/testing/worker: the worker side of the test-only hooks (see steadyframe/testing). Never import
 * this in a game.
 */
import type { Endpoint } from 'comlink';
import type { SharedViews } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { serveSimulation } from '../worker/serve.ts';
import { Simulation, type SimulationDefinition, type SimulationHost } from '../worker/simulation.ts';
import { FaultySlotWriter, type TestFault } from './faulty-slots.ts';

export { TEST_FAULTS, type TestFault } from './faulty-slots.ts';

/** A simulation whose slot writer has `fault`. */
class FaultySimulation<S extends Schema> extends Simulation<S> {
  constructor(
    definition: SimulationDefinition<S>,
    private readonly fault: TestFault,
    host?: SimulationHost,
  ) {
    super(definition, host);
  }

  protected override createWriter(views: SharedViews<S>, world: Float32Array, now: () => number, _memory: WebAssembly.Memory | null): FaultySlotWriter<S> {
    return new FaultySlotWriter(views, world, now, this.fault);
  }
}

/** Worker side: `exposeSimulation` with a broken writer (`fault`), or the real one (`'none'`). */
export function exposeFaultySimulation<S extends Schema>(definition: SimulationDefinition<S>, fault: TestFault | 'none', endpoint?: Endpoint): Simulation<S> {
  const simulation = fault === 'none' ? new Simulation(definition) : new FaultySimulation(definition, fault);
  serveSimulation(simulation, definition, endpoint);
  return simulation;
}
