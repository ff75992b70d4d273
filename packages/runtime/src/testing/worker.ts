/**
 * steadyframe/testing/worker: the worker side of the test-only hooks (see steadyframe/testing). Never import
 * this in a game.
 */
import type { Schema } from '../core/schema.ts';
import { exposeSimulation, type ExposeOptions } from '../worker/index.ts';
import type { Simulation } from '../worker/simulation.ts';
import type { SimulationDefinition } from '../worker/definition.ts';
import { faultyTransport, type TestFault } from './faulty-slots.ts';

export { EVENT_TEST_FAULTS, TEST_FAULTS, type TestFault } from './faulty-slots.ts';

/** Worker side: `exposeSimulation` with a broken writer (`fault`), or the real one (`'none'`). */
export function exposeFaultySimulation<S extends Schema>(definition: SimulationDefinition<S>, fault: TestFault | 'none', options: ExposeOptions = {}): Simulation<S> {
  return exposeSimulation(definition, { ...options, transports: [faultyTransport(fault), ...(options.transports ?? [])] });
}
