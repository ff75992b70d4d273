/**
 * A steadyframe simulation whose step is a Rapier step, for either dimension: the per-dimension files
 * (`physics-simulation.ts`, `physics-simulation-2d.ts`) make their `physicsSimulation` and `exposePhysics` with
 * `physicsEntry`, from their `createPhysics` and the names of their options. With a `tables` option the Physics
 * is one of tables (`physics.tables.x`), in one Rapier world, saved and loaded whole.
 *
 *   main thread        attach ─┐                         frames blend tick n-1 -> n
 *   worker       RAPIER.init() ├─ held ─┐ init(physics) ─ step: beforeStep, Rapier step(dt), copy pass,
 *                              └────────┘ (deferEndpoint)        afterStep, emitContacts(tick) ─ publish
 */
import { exposeSimulation, workerEndpoint, type Schema, type SimulationContext, type SimulationDefinition, type TickInfo, type World } from 'steadyframe/worker';
import type { ContactEmitter, ContactOptions } from './contact-events.ts';
import { checkContactOptions } from './contact-events.ts';
import { deferEndpoint, type Endpoint } from './deferred-endpoint.ts';
import type { EntityTarget, TablesTarget } from './entity-target.ts';

/** What the definition calls on a Physics of either dimension. */
export interface SteppedPhysics {
  step(dt: number): void;
  emitContacts(tick: ContactEmitter): number;
  save(): Uint8Array;
  load(saved: Uint8Array): void;
  dispose(): void;
}

/**
 * A physics simulation's definition, `P` the Physics of its dimension, `T` what its bodies are in: one
 * `EntityTarget`, or with a `tables` option a `TablesTarget`.
 */
export interface PhysicsDefinitionOf<S extends Schema, Setup, P, T = EntityTarget> extends Omit<SimulationDefinition<S, Setup>, 'init' | 'step'> {
  /**
   * The entities the bodies are (`physics.add` spawns there, `publish` writes their fields). Default: the
   * world itself. Anything with the world's entity members serves (`EntityTarget`): with entity tables, one
   * table (`target: (world) => world.tables.rocks`). With a `tables` option, the object whose `tables` holds
   * them (default: the world, whose `world.tables` does). Called each time a Physics is created.
   */
  target?(world: World<S>): T;
  /**
   * Adds the bodies of tick 0 (`physics.add`), with `createRuntime`'s `setup` (and `context.random`, the run's
   * seeded generator). Runs on attach and on `restart('scratch')` (the same `setup`), on a new Rapier world.
   */
  init?(physics: P, world: World<S>, setup: Setup, context: SimulationContext): void;
  /** Runs before each Rapier step: apply input, forces, spawns, teleports. */
  beforeStep?(physics: P, tick: TickInfo, world: World<S>): void;
  /**
   * Runs after each Rapier step and copy pass: read contacts, despawn what fell out of the world. With
   * `contacts: { events: true }` the step's contact events are emitted after it returns.
   */
  afterStep?(physics: P, tick: TickInfo, world: World<S>): void;
  /** Called with the new `Physics` each time one is created (on attach and on each restart from scratch). */
  onPhysics?(physics: P): void;
  /** Contact starts and ends as events (`PhysicsOptions.contacts`). */
  readonly contacts?: ContactOptions;
}

/**
 * The steadyframe simulation definition that steps a Rapier world once per tick, by `tick.dt`, and copies the
 * bodies' poses into the target's fields. `create` makes the Physics from the target and the options named in
 * `optionKeys` (with `contacts`), which are taken out of the definition; the rest is steadyframe's.
 *
 * `restart('last')` puts back the last published fields but not Rapier's state: the bodies carry on from where
 * Rapier has them, and the next copy pass overwrites the fields of every awake body.
 *
 * The definition saves and loads the Rapier world with it (`physics.save`/`load`, Rapier's snapshots), after the
 * definition's own `save`/`load` if it has them: `runtime.snapshot()` and a recording started mid-session carry
 * the physics along. For a replay that comes out bit for bit, step Rapier's deterministic build.
 */
export function createPhysicsSimulation<S extends Schema, Setup, P extends SteppedPhysics, O extends PhysicsEntryOptions>(
  definition: PhysicsDefinitionOf<S, Setup, P, EntityTarget | TablesTarget> & O,
  optionKeys: readonly (keyof O & string)[],
  create: (target: EntityTarget | TablesTarget, options: O) => P,
): SimulationDefinition<S, Setup> {
  const { init, beforeStep, afterStep, onPhysics, target, save, load, ...rest } = definition;
  const simulation: Record<string, unknown> = { ...rest };
  const options: Record<string, unknown> = {};
  for (const key of [...optionKeys, 'contacts', 'tables']) {
    if (simulation[key] !== undefined) options[key] = simulation[key];
    delete simulation[key];
  }
  const physicsOptions = options as O;
  const tables = physicsOptions.tables === undefined ? null : Object.keys(physicsOptions.tables);
  // at set-up, not at the first attach
  if (physicsOptions.contacts !== undefined) checkContactOptions(physicsOptions.contacts, tables);
  let physics: P | null = null;
  return {
    ...(simulation as Omit<SimulationDefinition<S, Setup>, 'init' | 'step'>),
    init(world, setup, context) {
      physics?.dispose();
      physics = create(target?.(world) ?? world, physicsOptions);
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

/** The options every dimension's definition takes besides its own pose fields and gravity. */
export interface PhysicsEntryOptions {
  readonly contacts?: ContactOptions;
  readonly tables?: { readonly [name: string]: object };
}

/** A dimension's two entry points, as `physicsEntry` makes them (typed by each dimension's overloads). */
export interface PhysicsEntry<R, P, O> {
  physicsSimulation<S extends Schema, Setup = undefined>(rapier: R, definition: PhysicsDefinitionOf<S, Setup, P, EntityTarget | TablesTarget> & O): SimulationDefinition<S, Setup>;
  exposePhysics<S extends Schema, Setup = undefined>(rapier: R, definition: PhysicsDefinitionOf<S, Setup, P, EntityTarget | TablesTarget> & O, endpoint?: Endpoint): void;
}

/**
 * `physicsSimulation` and `exposePhysics` for a dimension, from its `createPhysics` and the names of its options
 * (`contacts` aside). `exposePhysics` serves the definition from this worker, holding the page's messages until
 * Rapier's `init()` resolves, so the worker module needs no top-level await.
 */
export function physicsEntry<R extends { init(): Promise<void> }, P extends SteppedPhysics, O extends PhysicsEntryOptions>(
  create: (rapier: R, target: EntityTarget | TablesTarget, options: O) => P,
  optionKeys: readonly (keyof O & string)[],
): PhysicsEntry<R, P, O> {
  const entry: PhysicsEntry<R, P, O> = {
    physicsSimulation: (rapier, definition) => createPhysicsSimulation(definition, optionKeys, (target, options: O) => create(rapier, target, options)),
    exposePhysics(rapier, definition, endpoint = workerEndpoint()) {
      exposeSimulation(entry.physicsSimulation(rapier, definition), { endpoint: deferEndpoint(endpoint, rapier.init()) });
    },
  };
  return entry;
}
