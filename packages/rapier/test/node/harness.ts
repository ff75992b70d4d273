/**
 * A steadyframe simulation driven by hand in Node: attached to a real shared buffer, stepped with
 * `stepOnce`, its published slot read back through the runtime's own SlotReader.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { schema3d } from 'steadyframe';
import { computeLayout, countOf, schemaSignature } from 'steadyframe/adapter';
import { Simulation, type WorkerHost, type World } from 'steadyframe/worker';
import { physicsSimulation, type Physics, type PhysicsSimulationDefinition } from '@steadyframe/rapier';
// the runtime's own tests lay views over the buffer this way; no public call does it (the main thread's
// createRuntime does, with a Worker)
import { allocateSharedBuffer, createSharedViews } from '../../../runtime/src/core/layout.ts';
import { SlotReader } from '../../../runtime/src/core/slot-reader.ts';

const host: WorkerHost = {
  clock: () => () => 1000,
  sleep: () => new Promise(() => {}),
  yieldToEvents: () => Promise.resolve(),
  every: () => () => {},
};

export interface Published {
  count: number;
  y: (i: number) => number;
  previousGeneration: (i: number) => number;
  generation: (i: number) => number;
}

export async function physicsHarness(capacity: number, definition: Omit<PhysicsSimulationDefinition<typeof schema3d>, 'schema' | 'onPhysics'>) {
  await RAPIER.init();
  let physics: Physics | null = null;
  let world: World<typeof schema3d> | null = null;
  const sim = new Simulation(
    physicsSimulation(RAPIER, {
      ...definition,
      schema: schema3d,
      onPhysics: (p) => (physics = p),
      init(p, w, _setup, context) {
        world = w;
        definition.init?.(p, w, undefined, context);
      },
    }),
    { host },
  );
  const buffer = allocateSharedBuffer(computeLayout(schema3d, capacity), 0);
  sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema3d), capacity });
  const reader = new SlotReader(createSharedViews(buffer, schema3d, capacity));
  /** The front slot as the main thread would see it, copied out. */
  const published = (): Published => {
    const slot = reader.acquire()!;
    const position = Float32Array.from(slot.current.position);
    const generation = Uint32Array.from(slot.currentGeneration);
    const previousGeneration = Uint32Array.from(slot.previousGeneration);
    const count = countOf(slot);
    reader.release();
    return { count, y: (i) => position[3 * i + 1]!, generation: (i) => generation[i]!, previousGeneration: (i) => previousGeneration[i]! };
  };
  return {
    sim,
    get physics(): Physics {
      return physics!;
    },
    get world(): World<typeof schema3d> {
      return world!;
    },
    published,
    rapier: RAPIER,
  };
}
