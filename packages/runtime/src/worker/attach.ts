/**
 * The worker's side of the assembly, at attach: the transport the page attached over (found in the registry's
 * list by the config's `kind`), the host the loop runs on (the environment's, as the transport adapts it, or a
 * manual clock), the world laid out in the transport's memory, the writer that publishes it, and tick 0.
 */
import type { WorkerHost } from '../contracts/host.ts';
import type { AttachConfig, SimulationInfo } from '../contracts/remote.ts';
import type { WorkerHalf } from '../contracts/transport.ts';
import type { Clock } from '../core/clock.ts';
import { createTimeline } from '../core/fixed-step.ts';
import { checkSeed, randomSeed } from '../core/random.ts';
import { F64, fieldViews, generationView } from '../core/layout.ts';
import { NO_EMIT, tickEmitters } from './tick-events.ts';
import { schemaSignature, type Schema } from '../core/schema.ts';
import type { connectManualClock } from '../hosts/manual-clock/worker.ts';
import { findTransport } from '../transports/registry.ts';
import { fillMeta } from './tick.ts';
import type { SimulationContext } from './definition.ts';
import type { SimulationState } from './state.ts';
import type { RewindHistory } from './rewind-history.ts';
import { rewindOf, rewindStates } from './rewind.ts';
import { TickInputBuffer } from './tick-input.ts';
import { createWorld, type PrivateFieldSpec, type WorldInternals } from './world.ts';

/** How often the worker bumps HEARTBEAT, whatever it is doing, ms. */
export const HEARTBEAT_MS = 250;

/** What the worker side was given besides the definition. */
export interface WorkerParts {
  readonly transports: readonly WorkerHalf[];
  /** The environment's host (`exposeSimulation`'s, or the browser worker host). */
  readonly host: WorkerHost;
  /**
   * The manual clock's worker half, for a page that attaches with one (`config.clock`: tests and tools that move
   * time by hand): loaded by the simulation's `prepare`, so an app's worker never carries it. Null: not loaded.
   */
  readonly manualClock: typeof connectManualClock | null;
  /** The rewind history's class, for a definition with `rewind` (loaded by `prepare`, as the manual clock); null: not loaded. */
  readonly rewindHistory: typeof RewindHistory | null;
}

/** Lays the world over the transport the page attached with, runs `init`, publishes tick 0. */
export function attachSimulation<S extends Schema>(state: SimulationState<S>, config: AttachConfig, parts: WorkerParts): SimulationInfo {
  if (state.attached !== null) {
    throw new Error('steadyframe: this simulation is already attached to a buffer; start a new worker for a new runtime');
  }
  const { schema } = state.definition;
  const mine = schemaSignature(schema);
  if (config?.signature !== mine) {
    throw new TypeError(
      `steadyframe: the main thread's schema "${String(config?.signature)}" differs from the worker's "${mine}"; import one schema module in both`,
    );
  }
  const transport = findTransport(parts.transports, config).worker<S>(schema, config);
  const { views } = transport;
  const { layout } = views;
  // the world is laid out like one block, in the buffer's world region (only this thread touches it), so a
  // publish copies within one buffer, live entities only (core/publish-copy.ts)
  const worldBlock = new Float32Array(views.buffer, layout.worldOffset, layout.blockBytes / 4);
  const world = createWorld(
    layout,
    worldBlock,
    fieldViews<S>(views.buffer, layout.worldOffset, layout),
    generationView(views.buffer, layout.worldOffset, layout),
    state.definition.privateFields ?? {},
  );
  let host = transport.host(parts.host);
  if (config.clock !== undefined) {
    if (parts.manualClock === null) throw new Error('steadyframe: the page attached with a manual clock, whose worker half is not loaded: await simulation.prepare(config) before attach(config) (exposeSimulation does)');
    host = parts.manualClock(config.clock, host);
  }
  const raw = host.clock(views.f64[F64.CLOCK_ANCHOR]!);
  const clock: Clock = () => raw() - state.clockOffset;
  const writer = transport.writer(worldBlock, clock);
  const input = new TickInputBuffer(transport.input);
  const rewindMs = state.settings.rewindMs;
  if (rewindMs !== null && parts.rewindHistory === null) throw new Error('steadyframe: this simulation keeps a rewind history, whose code is not loaded: await simulation.prepare(config) before attach(config) (exposeSimulation does)');
  state.rewind = rewindMs === null ? null : new parts.rewindHistory!<S>(layout, rewindMs, rewindStates(rewindMs, state.tickRate), worldBlock);
  const info = { tick: 0, dt: 0, time: 0, at: 0, previousAt: 0, input, random: state.random.next, emit: NO_EMIT, emitPayload: NO_EMIT, rewind: rewindOf(state.rewind) };
  Object.assign(info, tickEmitters(info, transport.events, false, state.eventDigest));
  state.tickInfo = info;
  state.setup = config.setup;
  state.seed = config.seed === undefined ? randomSeed() : checkSeed(config.seed);
  state.random.seed(state.seed);
  runInit(state, world, { clock, random: state.random.next });
  world.takeSnaps(); // tick 0 has nothing to blend from anyway
  const now = clock();
  const a = (state.attached = { views, writer, clock, host, world, block: worldBlock, input, transport, timeline: createTimeline(0, now, state.tickLength), frameless: config.frameless === true });
  fillMeta(state, a, 0, now, world.world.count, 0);
  writer.publishInitial(state.meta);
  transport.published(writer.front);
  world.published();
  state.random.save(state.randomAtPublish);
  state.beat();
  // a heartbeat the main thread watches: a worker that stops beating is reported unresponsive
  state.stopHeartbeat = host.every(HEARTBEAT_MS, () => state.beat());
  return {
    tickRate: state.tickRate,
    timeScale: state.timeScale,
    maxCatchUpSteps: state.maxCatchUpSteps,
    maxLeadTicks: state.settings.maxLeadTicks,
    backlog: state.settings.backlog,
    maxBacklog: state.settings.maxBacklog,
    whenHidden: state.settings.pauseWhenHidden ? 'pause' : 'run',
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    transport: transport.kind,
    seed: state.seed,
  };
}

/**
 * The definition's `init` on `world`, with the setup the page sent; an error it throws says it came from `init`,
 * and, when `init` takes set-up data and none was sent, that `setup` is the likely cause.
 */
export function runInit<S extends Schema>(state: SimulationState<S>, world: WorldInternals<S, PrivateFieldSpec>, context: SimulationContext): void {
  const init = state.definition.init;
  if (init === undefined) return;
  try {
    init(world.world, state.setup, context);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint =
      state.setup === undefined && init.length >= 2
        ? '; its init(world, setup) takes set-up data, and createRuntime() was given none: pass setup: { ... } (and name its type: createRuntime<typeof schema, Commands, Setup>)'
        : '';
    throw new Error(`steadyframe: the simulation's init threw: ${message}${hint}`, { cause: error });
  }
}
