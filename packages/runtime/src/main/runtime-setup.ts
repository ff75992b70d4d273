/**
 * Set-up, once per runtime: check the options, make the transport (and, with shared memory and SIMD, the
 * kernels over it), attach the worker's simulation (raced against its `error` event and a timeout), and align
 * the two clocks. `createRuntime` is this with the library's own slot reader; the test-only entry
 * (`steadyframe/testing`) passes a deliberately broken one through `seams`.
 */
import { warnIfNotIsolated } from './isolation-warning.ts';
import { releaseProxy, transfer, wrap } from 'comlink';
import { createSharedClock, currentTimeOrigin } from '../core/clock.ts';
import { checkNumber, describeValue } from '../core/describe-value.ts';
import { computeLayout, fieldViews, type SharedViews } from '../core/layout.ts';
import type { SimulationInfo, SimulationRemote, TransportKind } from '../core/protocol.ts';
import { validateSchema, type FieldViews, type Schema } from '../core/schema.ts';
import { createBlendKernels, simdSupported, type BlendKernels } from '../core/simd-kernel.ts';
import { SlotReader } from '../core/slots.ts';
import { alignClocks, type ClockSkew } from './clock-align.ts';
import { MainRuntime } from './main-runtime.ts';
import { createMessageMainTransport } from './message-transport.ts';
import type { Runtime, RuntimeOptions } from './runtime.ts';
import { validateInterpolation } from './sampler.ts';
import { createSharedMainTransport } from './shared-transport.ts';
import type { MainTransport } from './transport.ts';

/** Why SharedArrayBuffer is missing, and what to do. */
export const ISOLATION_REQUIRED =
  'steadyframe: SharedArrayBuffer needs a cross-origin isolated page. Serve it with the headers ' +
  '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp" ' +
  '(or "credentialless"); crossOriginIsolated is false here.';

/** How long `createRuntime` waits for the worker to attach by default, ms (`attachTimeout`). */
export const DEFAULT_ATTACH_TIMEOUT = 10_000;
/** Ms without a heartbeat before `unresponsive`, by default (`heartbeatTimeout`). */
export const DEFAULT_HEARTBEAT_TIMEOUT = 2_000;

/** What set-up may be given instead of the library's own parts (tests only). */
export interface RuntimeSeams {
  /** The page's reader of the shared buffer. */
  readonly reader?: <S extends Schema>(views: SharedViews<S>, maxSpins: number) => SlotReader<S>;
}

/** `heartbeatTimeout` as the watchdog takes it: ms, Infinity for off. */
function checkHeartbeatTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_HEARTBEAT_TIMEOUT;
  if (value === false || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new RangeError(
    `steadyframe: heartbeatTimeout must be a number of ms above 0 (default ${DEFAULT_HEARTBEAT_TIMEOUT}), or false (or Infinity) to turn the watchdog off; got ${describeValue(value)}`,
  );
}

function checkAttachTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_ATTACH_TIMEOUT;
  if (typeof value === 'number' && value > 0 && !Number.isNaN(value)) return value;
  throw new RangeError(`steadyframe: attachTimeout must be a number of ms above 0 (default ${DEFAULT_ATTACH_TIMEOUT}; Infinity waits forever); got ${describeValue(value)}`);
}

/** `setup` must survive a structured clone (it is posted to the worker): say so at set-up, not as a DataCloneError. */
function checkSetup(setup: unknown): void {
  if (setup === undefined) return;
  try {
    structuredClone(setup);
  } catch (error) {
    throw new TypeError(
      `steadyframe: setup must be structured-cloneable (numbers, strings, plain objects, arrays, typed arrays, Maps; no functions, class instances lose their methods); got ${describeValue(setup)}: ${(error as Error).message}`,
    );
  }
}

export async function setUpRuntime<S extends Schema, C extends object>(options: RuntimeOptions<S>, seams: RuntimeSeams = {}): Promise<MainRuntime<S, C>> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`steadyframe: createRuntime() takes an options object ({ worker, schema, capacity, ... }); got ${describeValue(options)}`);
  }
  const { worker, schema, capacity } = options;
  validateSchema(schema);
  const isolated = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated !== false;
  const wanted = options.transport ?? 'auto';
  if (wanted !== 'auto' && wanted !== 'shared' && wanted !== 'message') {
    throw new RangeError(`steadyframe: transport must be 'auto', 'shared' or 'message'; got ${describeValue(wanted)}`);
  }
  if (wanted === 'shared' && !isolated) throw new Error(ISOLATION_REQUIRED);
  const kind: TransportKind = wanted === 'message' || !isolated ? 'message' : 'shared';
  warnIfNotIsolated(wanted, kind);
  if (typeof worker?.postMessage !== 'function') {
    throw new TypeError(
      `steadyframe: options.worker must be a Worker, e.g. new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' }); got ${describeValue(worker)}`,
    );
  }
  if (options.interpolation !== undefined) validateInterpolation(schema, options.interpolation);
  const maxSpins = checkNumber('maxSpins', options.maxSpins ?? 10_000, 1, { integer: true });
  const heartbeatTimeout = checkHeartbeatTimeout(options.heartbeatTimeout);
  const attachTimeout = checkAttachTimeout(options.attachTimeout);
  checkSetup(options.setup);
  const layout = computeLayout(schema, capacity);
  const anchor = currentTimeOrigin();
  const input = options.input === false ? null : { capacity: options.input?.capacity ?? 1024, payloadWidth: options.input?.payloadWidth ?? 4 };

  let transport: MainTransport<S>;
  let simd: { kernels: BlendKernels; scratch: FieldViews<S> } | null = null;
  if (kind === 'shared') {
    let memory: WebAssembly.Memory | undefined;
    let kernels: BlendKernels | null = null;
    if ((options.kernels ?? 'wasm-simd') === 'wasm-simd' && simdSupported()) {
      // the shared buffer as a WebAssembly memory, with a scratch block for the kernels' output after the layout
      const pages = Math.ceil((layout.totalBytes + layout.blockBytes) / 65_536);
      memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
      // and, where the engine has multi-memory, a plain render memory the kernels write into directly
      kernels = createBlendKernels({ memory, renderBytes: layout.blockBytes });
    }
    transport = createSharedMainTransport(schema, layout, {
      anchor,
      maxSpins,
      input,
      ...(memory === undefined ? {} : { memory }),
      ...(seams.reader === undefined ? {} : { reader: seams.reader }),
    });
    if (kernels?.backend === 'wasm-simd') simd = { kernels, scratch: fieldViews<S>(transport.views!.buffer, layout.totalBytes, layout) };
  } else {
    transport = createMessageMainTransport<S>(layout, { anchor, input });
  }

  const remote = wrap<SimulationRemote>(worker);
  let info: SimulationInfo;
  let clock: ClockSkew;
  // a worker script that fails to load or throws at its top level never answers, and neither does one that
  // loads but never calls exposeSimulation: fail instead of hanging
  let onError = (_: ErrorEvent) => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = (event) => {
      event.preventDefault();
      reject(new Error(`steadyframe: the worker failed before it attached: ${event.message || 'it did not load (check its URL and that it calls exposeSimulation)'}`));
    };
    worker.addEventListener('error', onError);
    if (Number.isFinite(attachTimeout)) {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `steadyframe: the worker did not attach within ${attachTimeout} ms: it loaded (or is still loading) but never answered; ` +
                'the likely cause is a worker module that does not call exposeSimulation() at its top level (or awaits something first). ' +
                'Raise attachTimeout if it is only slow to load',
            ),
          ),
        attachTimeout,
      );
    }
  });
  try {
    const attach = options.setup === undefined ? transport.attach : { ...transport.attach, setup: options.setup };
    info = await Promise.race([remote.attach(transfer(attach, transport.transfer)), failed]);
    clock = await Promise.race([alignClocks(remote, createSharedClock(anchor)), failed]);
  } catch (error) {
    remote[releaseProxy]();
    transport.close();
    throw error;
  } finally {
    clearTimeout(timer);
    worker.removeEventListener('error', onError);
  }
  return new MainRuntime<S, C>(options, { layout, anchor, transport, remote, info, clock, simd, heartbeatTimeout });
}
