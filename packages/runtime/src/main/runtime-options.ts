/**
 * The checks of `createRuntime`'s options that every host shares, at set-up: a wrong value throws naming the
 * option and what it takes (core/describe-value.ts), before anything is made.
 */
import type { RuntimeOptionsBase } from '../contracts/app.ts';
import type { EventRingSize, InputRingSize } from '../contracts/transport.ts';
import { computeEventRingLayout, DEFAULT_EVENT_CAPACITY, DEFAULT_EVENT_PAYLOAD_WIDTH } from '../core/event-ring.ts';
import { checkNumber, describeValue } from '../core/describe-value.ts';
import { validateSchema, type Schema } from '../core/schema.ts';
import type { BlendBackend } from '../core/simd-kernel.ts';
import { validateInterpolation } from './sampler.ts';
import { checkSeed, randomSeed } from '../core/random.ts';

/** How long set-up waits for the worker to attach by default, ms (`attachTimeout`). */
export const DEFAULT_ATTACH_TIMEOUT = 10_000;
/** Ms without a heartbeat before `unresponsive`, by default (`heartbeatTimeout`). */
export const DEFAULT_HEARTBEAT_TIMEOUT = 2_000;

/** The options as the composition root uses them: checked, defaults filled in. */
export interface CheckedOptions {
  readonly maxSpins: number;
  /** Ms of heartbeat silence before `unresponsive`; Infinity: never. */
  readonly heartbeatTimeout: number;
  /** Ms to wait for the attach; Infinity: forever. */
  readonly attachTimeout: number;
  readonly input: InputRingSize | null;
  /** The event ring's size, or null for none. */
  readonly events: EventRingSize | null;
  readonly kernels: BlendBackend;
  /** 'auto' or a transport's kind (checked against the transports when one is chosen). */
  readonly transport: string;
  /** The generator's seed: the one given, or a fresh one. */
  readonly seed: number;
}

/** `heartbeatTimeout` as the watchdog takes it: ms, Infinity for off. */
export function checkHeartbeatTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_HEARTBEAT_TIMEOUT;
  if (value === false || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new RangeError(
    `steadyframe: heartbeatTimeout must be a number of ms above 0 (default ${DEFAULT_HEARTBEAT_TIMEOUT}), or false (or Infinity) to turn the watchdog off; got ${describeValue(value)}`,
  );
}

export function checkAttachTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_ATTACH_TIMEOUT;
  if (typeof value === 'number' && value > 0 && !Number.isNaN(value)) return value;
  throw new RangeError(`steadyframe: attachTimeout must be a number of ms above 0 (default ${DEFAULT_ATTACH_TIMEOUT}; Infinity waits forever); got ${describeValue(value)}`);
}

/** `setup` must survive a structured clone (it is posted to the worker): say so at set-up, not as a DataCloneError. */
export function checkSetup(setup: unknown): void {
  if (setup === undefined) return;
  try {
    structuredClone(setup);
  } catch (error) {
    throw new TypeError(
      `steadyframe: setup must be structured-cloneable (numbers, strings, plain objects, arrays, typed arrays, Maps; no functions, class instances lose their methods); got ${describeValue(setup)}: ${(error as Error).message}`,
    );
  }
}

/** `events` as the transports take it: a size (defaults filled in, checked now), or null for `false`. */
export function checkEvents(value: unknown): EventRingSize | null {
  if (value === false) return null;
  if (value !== undefined && (typeof value !== 'object' || value === null)) {
    throw new TypeError(`steadyframe: events must be { capacity?, payloadWidth? } or false (no event ring); got ${describeValue(value)}`);
  }
  const { capacity = DEFAULT_EVENT_CAPACITY, payloadWidth = DEFAULT_EVENT_PAYLOAD_WIDTH } = (value ?? {}) as { capacity?: number; payloadWidth?: number };
  computeEventRingLayout(capacity, payloadWidth); // throws for a bad size, naming it
  return { capacity, payloadWidth };
}

/** Checks what every host's runtime takes; the host checks its own (`worker`) when it starts the worker. */
export function checkOptions<S extends Schema>(options: RuntimeOptionsBase<S> & { readonly setup?: unknown }): CheckedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`steadyframe: createRuntime() takes an options object ({ worker, schema, capacity, ... }); got ${describeValue(options)}`);
  }
  validateSchema(options.schema);
  const transport = options.transport ?? 'auto';
  if (typeof transport !== 'string') {
    throw new RangeError(`steadyframe: transport must be 'auto', 'shared', 'message' or the kind of one of your transports; got ${describeValue(transport)}`);
  }
  if (options.interpolation !== undefined) validateInterpolation(options.schema, options.interpolation);
  if (options.draw !== undefined && typeof options.draw !== 'function') {
    throw new TypeError(`steadyframe: draw must be a function (frame) => void; got ${describeValue(options.draw)}`);
  }
  const kernels = options.kernels ?? 'wasm-simd';
  if (kernels !== 'wasm-simd' && kernels !== 'js') throw new RangeError(`steadyframe: kernels must be 'wasm-simd' or 'js'; got ${describeValue(kernels)}`);
  checkSetup(options.setup);
  return {
    maxSpins: checkNumber('maxSpins', options.maxSpins ?? 10_000, 1, { integer: true }),
    heartbeatTimeout: checkHeartbeatTimeout(options.heartbeatTimeout),
    attachTimeout: checkAttachTimeout(options.attachTimeout),
    seed: options.seed === undefined ? randomSeed() : checkSeed(options.seed),
    input: options.input === false ? null : { capacity: options.input?.capacity ?? 1024, payloadWidth: options.input?.payloadWidth ?? 4 },
    events: checkEvents(options.events),
    kernels,
    transport,
  };
}
