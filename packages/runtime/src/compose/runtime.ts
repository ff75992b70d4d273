/**
 * The composition root: every page-side runtime is built here, whatever its host (ARCHITECTURE.md, "Ports").
 * `composeRuntime` makes a runtime that attaches a simulation worker (a browser page, Node, a manual clock, the
 * page side of a render worker); `composeFrames` makes the frame machinery alone over a transport joined to
 * another thread's buffer (the render worker). Nothing else in the library wires these parts together.
 *
 * ```text
 *  options ─ check ─ choose transport (registry) ─ layout ─ open its page half ─ start the worker (host)
 *     ─ attach (raced: the worker's errors, attachTimeout) ─ align clocks ─ Watchdog, FrameLoop ─ MainRuntime
 * ```
 */
import { releaseProxy, transfer, wrap } from 'comlink';
import type { RuntimeEvents, RuntimeOptionsBase } from '../contracts/app.ts';
import type { PageHost } from '../contracts/host.ts';
import type { AttachConfig, ManualClockConfig, SimulationInfo, SimulationRemote, WorkerStats } from '../contracts/remote.ts';
import type { PageTransport } from '../contracts/transport.ts';
import type { Clock } from '../core/clock.ts';
import { computeLayout, type Layout } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { attachDeadline, describeHeld } from '../main/attach-deadline.ts';
import { alignClocks, type ClockSkew } from '../main/clock-align.ts';
import { Emitter } from '../main/events.ts';
import { FrameLoop, type FrameLoopOptions } from '../main/frame-loop.ts';
import { warnFallback } from '../main/isolation-warning.ts';
import { MainRuntime } from '../main/main-runtime.ts';
import { checkOptions } from '../main/runtime-options.ts';
import { Watchdog, type WatchdogEvents } from '../main/watchdog.ts';
import { chooseTransport, PAGE_TRANSPORTS, transportList } from '../transports/registry.ts';

/** What `composeRuntime` takes: the options every host shares, and the host's own name for the worker. */
export type ComposeOptions<S extends Schema> = RuntimeOptionsBase<S> & {
  /** What the host starts the simulation worker from (`PageHost.startWorker`). */
  readonly worker: unknown;
  readonly setup?: unknown;
};

/** How the runtime being made relates to the others. */
export interface ComposeRole {
  /** A manual clock both sides read (hosts/manual-clock/page.ts): passed to the worker at attach. */
  readonly clock?: ManualClockConfig;
  /** False when another thread reads the states (a render worker): this runtime then draws no frames, and watches nothing. */
  readonly reads?: boolean;
  /** The transport to use whatever the options say (a render worker needs 'shared'). */
  readonly transport?: string;
}

/**
 * Builds a runtime on `host`: checks the options, opens the transport, starts and attaches the worker, aligns
 * the clocks. Takes `host` over: its frame hooks are closed if set-up fails, and when the runtime is disposed.
 */
export async function composeRuntime<S extends Schema, C extends object>(host: PageHost, options: ComposeOptions<S>, role: ComposeRole = {}): Promise<MainRuntime<S, C>> {
  try {
    return await attachRuntime<S, C>(host, options, role);
  } catch (error) {
    host.frames?.close();
    throw error;
  }
}

async function attachRuntime<S extends Schema, C extends object>(host: PageHost, options: ComposeOptions<S>, role: ComposeRole): Promise<MainRuntime<S, C>> {
  const checked = checkOptions(options);
  const reads = role.reads !== false;
  // another thread reads the states: this page needs no frame hooks
  if (!reads) host.frames?.close();
  if (reads && options.draw !== undefined && host.frames === null) {
    throw new TypeError(`steadyframe: draw needs animation frames, and this host (${host.kind}) has none: leave draw out and call runtime.frame() from your own loop`);
  }
  const wanted = role.transport ?? checked.transport;
  const { transport: chosen, passedOver } = chooseTransport(transportList(options.transports, PAGE_TRANSPORTS), wanted, host);
  warnFallback(wanted, chosen.kind, passedOver);
  const layout = computeLayout(options.schema, options.capacity);
  const anchor = host.timeOrigin();
  // awaited: the message transport's page half loads on demand
  const transport = await chosen.page<S>({ schema: options.schema, layout, anchor, maxSpins: checked.maxSpins, input: checked.input, events: checked.events, kernels: checked.kernels, host });
  let link;
  try {
    link = host.startWorker(options.worker);
  } catch (error) {
    transport.close();
    throw error;
  }
  const remote = wrap<SimulationRemote>(link.endpoint);
  // a worker script that fails to load or throws at its top level never answers, and neither does one that
  // loads but never calls exposeSimulation: fail instead of hanging
  let stopListening = (): void => {};
  let cancelDeadline = (): void => {};
  const failed = new Promise<never>((_, reject) => {
    stopListening = link.onError((message) =>
      reject(new Error(`steadyframe: the worker failed before it attached: ${message || 'it did not load (check its URL and that it calls exposeSimulation)'}`)),
    );
    // real time the page was awake, whatever the runtime's clock: this is about a module loading
    cancelDeadline = attachDeadline(checked.attachTimeout, (held) =>
      reject(
        new Error(
          `steadyframe: the worker did not attach within ${checked.attachTimeout} ms${describeHeld(held)}: it loaded (or is still loading) but never answered; ` +
            'the likely cause is a worker module that does not call exposeSimulation() at its top level (or awaits something first). ' +
            'Raise attachTimeout if it is only slow to load',
        ),
      ),
    );
  });
  let info: SimulationInfo;
  let skew: ClockSkew;
  const clock = host.clock(anchor);
  try {
    const config: AttachConfig = {
      ...transport.attach,
      seed: checked.seed,
      ...(options.setup === undefined ? {} : { setup: options.setup }),
      ...(role.clock === undefined ? {} : { clock: role.clock }),
      // no animation frames here (Node): the worker's lead is only for the frames the app makes
      ...(host.frames === null ? { frameless: true } : {}),
    };
    info = await Promise.race([remote.attach(transfer(config, transport.transfer)), failed]);
    skew = await Promise.race([alignClocks(remote, clock), failed]);
    // where states arrive as messages on a channel of their own, tick 0's may still be on its way: the runtime
    // is not ready (`frame()` before `start()` draws it) until it is here
    if (transport.firstState !== undefined) await Promise.race([transport.firstState(), failed]);
  } catch (error) {
    remote[releaseProxy]();
    transport.close();
    link.terminate();
    throw error;
  } finally {
    cancelDeadline();
    stopListening();
  }
  const events = new Emitter<RuntimeEvents<S>>();
  const { watchdog, loop } = composeFrames<S>({
    schema: options.schema,
    layout,
    transport,
    clock,
    host: reads ? host : { ...host, frames: null, every: () => () => {} },
    heartbeatTimeout: checked.heartbeatTimeout,
    simulation: remote,
    emit: (type, event) => events.emit(type, event as RuntimeEvents<S>[typeof type]),
    wantsOverloads: () => events.has('overload'),
    frames: {
      draw: reads ? options.draw : undefined,
      interpolation: options.interpolation,
      pacing: options.pacing,
      onInterval: (change) => events.emit('interval', change),
      onPresent: (presented) => {
        // a listener that throws is reported, and the frame goes on
        try {
          events.emit('present', presented);
        } catch (error) {
          console.error(error);
        }
      },
      wantsPresent: () => events.has('present'),
    },
  });
  return new MainRuntime<S, C>({
    schema: options.schema,
    capacity: options.capacity,
    layout,
    now: clock,
    transport,
    remote,
    info,
    clock: skew,
    link,
    host,
    events,
    watchdog,
    loop,
    onError: options.onError,
    visibility: options.visibility === undefined ? host.visibility() : options.visibility,
  });
}

/** What the frame machinery is built from. */
export interface FramesParts<S extends Schema> {
  readonly schema: S;
  readonly layout: Layout;
  readonly transport: PageTransport<S>;
  readonly clock: Clock;
  readonly host: Pick<PageHost, 'frames' | 'waitFor' | 'every'>;
  /** Ms of heartbeat silence before `unresponsive`; Infinity: never. */
  readonly heartbeatTimeout: number;
  /** Where the watchdog asks the simulation's stats (a fault's message, an overload's figures). */
  readonly simulation: { stats(): Promise<WorkerStats> };
  readonly emit: <K extends keyof WatchdogEvents>(type: K, event: WatchdogEvents[K]) => void;
  /** Whether anyone listens to `overload` (its figures cost a round trip to the worker). */
  readonly wantsOverloads: () => boolean;
  readonly frames: FrameLoopOptions<S>;
}

/** The watchdog and the frame loop over a transport: the page's runtime, and the render worker's frames. */
export function composeFrames<S extends Schema>(parts: FramesParts<S>): { watchdog: Watchdog; loop: FrameLoop<S> } {
  const watchdog = new Watchdog(parts.transport.header, parts.heartbeatTimeout, parts.simulation, parts.emit, parts.wantsOverloads);
  const loop = new FrameLoop<S>(
    { schema: parts.schema, layout: parts.layout, transport: parts.transport, watchdog, now: parts.clock, frames: parts.host.frames, host: parts.host },
    parts.frames,
  );
  return { watchdog, loop };
}
