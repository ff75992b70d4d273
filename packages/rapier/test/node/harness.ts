/**
 * A steadyframe simulation driven by hand in Node: attached to a real shared buffer, stepped with
 * `stepOnce`, its published slot read back through the runtime's own SlotReader. One harness for both of
 * Rapier's dimensions: `physicsHarness` (3D, schema3d) and `physicsHarness2d` (2D, schema2d, either 2D build).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import RAPIER2D from '@dimforge/rapier2d-compat';
import { schema2d, schema3d, tablesCapacity } from 'steadyframe';
import { computeLayout, countOf, schemaSignature } from 'steadyframe/adapter';
import { Simulation, type Schema, type SimulationDefinition, type WorkerHost, type World } from 'steadyframe/worker';
import { physicsSimulation, type Physics, type PhysicsSimulationDefinition, type TablesPhysics } from '@steadyframe/rapier';
import {
  physicsSimulation as physicsSimulation2d,
  type Physics as Physics2D,
  type PhysicsSimulationDefinition as PhysicsSimulationDefinition2D,
  type Rapier as Rapier2D,
  type TablesPhysics as TablesPhysics2D,
} from '@steadyframe/rapier/2d';
import type { PhysicsDefinitionOf } from '@steadyframe/rapier';
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
  /** Entity i's published position, component `axis` (0 x, 1 y, ...). */
  at: (i: number, axis: number) => number;
  y: (i: number) => number;
  previousGeneration: (i: number) => number;
  generation: (i: number) => number;
}

/** The hooks the harness adds to a definition: it keeps the Physics and the world the simulation made. */
type Hooks<S extends Schema, P> = Required<Pick<PhysicsDefinitionOf<S, undefined, P>, 'onPhysics' | 'init'>>;

async function harness<S extends Schema, P, R>(rapier: R & { init(): Promise<void> }, schema: S, capacity: number, init: PhysicsDefinitionOf<S, undefined, P>['init'], make: (hooks: Hooks<S, P>) => SimulationDefinition<S>) {
  await rapier.init();
  let physics: P | null = null;
  let world: World<S> | null = null;
  const sim = new Simulation(
    make({
      onPhysics: (p) => (physics = p),
      init(p, w, _setup, context) {
        world = w;
        init?.(p, w, undefined, context);
      },
    }),
    { host },
  );
  const buffer = allocateSharedBuffer(computeLayout(schema, capacity), 0);
  sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity });
  const reader = new SlotReader(createSharedViews(buffer, schema, capacity));
  const width = (schema.position as { width: number }).width;
  /** The front slot as the main thread would see it, copied out. */
  const published = (): Published => {
    const slot = reader.acquire()!;
    const position = Float32Array.from((slot.current as { readonly [name: string]: Float32Array }).position!);
    const generation = Uint32Array.from(slot.currentGeneration);
    const previousGeneration = Uint32Array.from(slot.previousGeneration);
    const count = countOf(slot);
    reader.release();
    const at = (i: number, axis: number) => position[width * i + axis]!;
    return { count, at, y: (i) => at(i, 1), generation: (i) => generation[i]!, previousGeneration: (i) => previousGeneration[i]! };
  };
  return {
    sim,
    get physics(): P {
      return physics!;
    },
    get world(): World<S> {
      return world!;
    },
    published,
    rapier,
  };
}

/** Rapier's 3D compat build over schema3d. */
export function physicsHarness(capacity: number, definition: Omit<PhysicsSimulationDefinition<typeof schema3d>, 'schema' | 'onPhysics'>) {
  return harness<typeof schema3d, Physics, typeof RAPIER>(RAPIER, schema3d, capacity, definition.init, (hooks) => physicsSimulation(RAPIER, { ...definition, schema: schema3d, ...hooks }));
}

/** Rapier's 2D build over schema2d: the compat build unless `rapier` names another (the deterministic one). */
export function physicsHarness2d(capacity: number, definition: Omit<PhysicsSimulationDefinition2D<typeof schema2d>, 'schema' | 'onPhysics'>, rapier: Rapier2D = RAPIER2D) {
  return harness<typeof schema2d, Physics2D, Rapier2D>(rapier, schema2d, capacity, definition.init, (hooks) => physicsSimulation2d(rapier, { ...definition, schema: schema2d, ...hooks }));
}

/**
 * A definition of tables (`tables`, `contacts`, hooks) for a schema of tables: its options are checked by the
 * typed fixtures and the README; here they pass through as given.
 */
type TablesDefinition<P> = { readonly tables: object; readonly gravity?: object; readonly contacts?: object; init?(physics: P, world: World<Schema>): void };

/** Rapier's 3D compat build over a schema of tables, with `tables`: a `TablesPhysics`. */
export function tablesHarness<S extends Schema>(schema: S, definition: TablesDefinition<TablesPhysics>) {
  return harness<S, TablesPhysics, typeof RAPIER>(RAPIER, schema, tablesCapacity(schema), definition.init as never, (hooks) =>
    physicsSimulation(RAPIER, { ...definition, tickRate: 60, schema, ...hooks } as never),
  );
}

/** Rapier's 2D build over a schema of tables, with `tables`: the compat build unless `rapier` names another. */
export function tablesHarness2d<S extends Schema>(schema: S, definition: TablesDefinition<TablesPhysics2D>, rapier: Rapier2D = RAPIER2D) {
  return harness<S, TablesPhysics2D, Rapier2D>(rapier, schema, tablesCapacity(schema), definition.init as never, (hooks) =>
    physicsSimulation2d(rapier, { ...definition, tickRate: 60, schema, ...hooks } as never),
  );
}
