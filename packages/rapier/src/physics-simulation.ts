/**
 * A steadyframe simulation whose step is a Rapier step: `physicsSimulation` builds the definition,
 * `exposePhysics` serves it from a worker once Rapier's WebAssembly is ready.
 *
 *   main thread        attach ─┐                         frames blend tick n-1 -> n
 *   worker       RAPIER.init() ├─ held ─┐ init(physics) ─ step: beforeStep, Rapier step(dt), copy pass,
 *                              └────────┘ (deferEndpoint)        afterStep, emitContacts(tick) ─ publish
 */
import { exposeSimulation, workerEndpoint, type Schema, type SimulationContext, type SimulationDefinition, type TickInfo, type World } from 'steadyframe/worker';
import { checkContactOptions } from './contact-events.ts';
import { deferEndpoint, type Endpoint } from './deferred-endpoint.ts';
import { createPhysics, type Physics, type PhysicsOptions, type Rapier } from './physics.ts';

export interface PhysicsSimulationDefinition<S extends Schema, Setup = undefined>
  extends Omit<SimulationDefinition<S, Setup>, 'init' | 'step'>,
    PhysicsOptions {
  /**
   * Adds the bodies of tick 0 (`physics.add`), with `createRuntime`'s `setup` (and `context.random`, the run's
   * seeded generator). Runs on attach and on `restart('scratch')` (the same `setup`), on a new Rapier world.
   */
  init?(physics: Physics, world: World<S>, setup: Setup, context: SimulationContext): void;
  /** Runs before each Rapier step: apply input, forces, spawns, teleports. */
  beforeStep?(physics: Physics, tick: TickInfo, world: World<S>): void;
  /**
   * Runs after each Rapier step and copy pass: read contacts, despawn what fell out of the world. With
   * `contacts: { events: true }` the step's contact events are emitted after it returns.
   */
  afterStep?(physics: Physics, tick: TickInfo, world: World<S>): void;
  /** Called with the new `Physics` each time one is created (on attach and on each restart from scratch). */
  onPhysics?(physics: Physics): void;
}

/**
 * The steadyframe simulation definition that steps a Rapier world once per tick, by `tick.dt`, and copies the
 * bodies' poses into the schema's position and rotation fields. Rapier must be initialised (`await
 * RAPIER.init()`) before the main thread attaches: `exposePhysics` sees to that.
 *
 * `restart('last')` puts back the last published fields but not Rapier's state: the bodies carry on from where
 * Rapier has them, and the next copy pass overwrites the fields of every awake body.
 *
 * The definition saves and loads the Rapier world with it (`physics.save`/`load`, Rapier's snapshots), after the
 * definition's own `save`/`load` if it has them: `runtime.snapshot()` and a recording started mid-session carry
 * the physics along. For a replay that comes out bit for bit, step Rapier's deterministic build.
 */
export function physicsSimulation<S extends Schema, Setup = undefined>(
  rapier: Rapier,
  definition: PhysicsSimulationDefinition<S, Setup>,
): SimulationDefinition<S, Setup> {
  const { init, beforeStep, afterStep, onPhysics, gravity, position, rotation, contacts, save, load, ...rest } = definition;
  if (contacts !== undefined) checkContactOptions(contacts); // at set-up, not at the first attach
  const options: PhysicsOptions = {
    ...(gravity === undefined ? {} : { gravity }),
    ...(contacts === undefined ? {} : { contacts }),
    ...(position === undefined ? {} : { position }),
    ...(rotation === undefined ? {} : { rotation }),
  };
  let physics: Physics | null = null;
  return {
    ...rest,
    init(world, setup, context) {
      physics?.dispose();
      physics = createPhysics(rapier, world, options);
      onPhysics?.(physics);
      init?.(physics, world, setup, context);
    },
    step(world, tick) {
      const p = physics!;
      beforeStep?.(p, tick, world);
      p.step(tick.dt);
      afterStep?.(p, tick, world);
      // last, so that the entity indices are those this tick publishes (afterStep may have removed bodies)
      p.emitContacts(tick);
    },
    // the definition's own state (length u32, bytes), then the physics
    save() {
      const own = save?.() ?? new Uint8Array(0);
      const body = physics!.save();
      const out = new Uint8Array(4 + own.byteLength + body.byteLength);
      new DataView(out.buffer).setUint32(0, own.byteLength, true);
      out.set(own, 4);
      out.set(body, 4 + own.byteLength);
      return out;
    },
    load(saved) {
      const ownLength = new DataView(saved.buffer, saved.byteOffset, saved.byteLength).getUint32(0, true);
      physics!.load(saved.subarray(4 + ownLength));
      load?.(saved.subarray(4, 4 + ownLength));
      onPhysics?.(physics!); // the same Physics, a new Rapier world inside it
    },
  };
}

/**
 * Initialises Rapier and serves the physics simulation to the main thread (call it once, at the top level of
 * the worker module, instead of `exposeSimulation`). Messages that arrive before Rapier is ready are held.
 */
export function exposePhysics<S extends Schema, Setup = undefined>(
  rapier: Rapier,
  definition: PhysicsSimulationDefinition<S, Setup>,
  endpoint: Endpoint = workerEndpoint(),
): void {
  exposeSimulation(physicsSimulation(rapier, definition), { endpoint: deferEndpoint(endpoint, rapier.init()) });
}
