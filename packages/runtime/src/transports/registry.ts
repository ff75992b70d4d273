/**
 * The transports the library ships, and the choice among them: the only module that imports transport
 * implementations. A new transport is a folder beside these and one line in each list below.
 *
 * Each side lists its own halves (`PAGE_TRANSPORTS`, `WORKER_TRANSPORTS`), so a bundler leaves the other side's
 * code out of each bundle: the page's bundle holds no worker half, the worker's no page half (the blend kernels,
 * the WebAssembly assembler, the readers). transports/library.ts has them whole (`DEFAULT_TRANSPORTS`), for a
 * thread that plays both sides (the render worker joins the page's buffer) and for tests.
 *
 * ```text
 *  page bundle    PAGE_TRANSPORTS    shared page half ── message page half (loaded on demand: a chunk of its own)
 *  worker bundle  WORKER_TRANSPORTS  shared worker half, message worker half (attach is synchronous)
 * ```
 */
import type { PageHost } from '../contracts/host.ts';
import type { AttachConfig } from '../contracts/remote.ts';
import type { PageHalf, Transport, WorkerHalf } from '../contracts/transport.ts';
import { describeValue } from '../core/describe-value.ts';
import { messagePageHalf, messageWorkerHalf } from './message/index.ts';
import { sharedPageHalf, sharedWorkerHalf } from './shared/index.ts';

/** The page halves, in order of preference: the first one available is what 'auto' gets. */
export const PAGE_TRANSPORTS: readonly PageHalf[] = [sharedPageHalf, messagePageHalf] as readonly PageHalf[];
/** The worker halves. */
export const WORKER_TRANSPORTS: readonly WorkerHalf[] = [sharedWorkerHalf, messageWorkerHalf] as readonly WorkerHalf[];

/**
 * The transports an app named (its own first, then the library's `defaults`: one side's halves), checked: each a
 * `Transport` with a kind of its own.
 */
export function transportList<T extends { readonly kind: string }>(extra: unknown, defaults: readonly T[]): readonly (T | Transport)[] {
  if (extra === undefined) return defaults;
  if (!Array.isArray(extra)) {
    throw new TypeError(`steadyframe: transports must be an array of transports ({ kind, available, page, worker }); got ${describeValue(extra)}`);
  }
  for (const t of extra as unknown[]) {
    const transport = t as Partial<Transport> | null;
    if (
      typeof transport !== 'object' ||
      transport === null ||
      typeof transport.kind !== 'string' ||
      typeof transport.available !== 'function' ||
      typeof transport.page !== 'function' ||
      typeof transport.worker !== 'function'
    ) {
      throw new TypeError(`steadyframe: a transport is an object { kind, available(host), page(context), worker(schema, config) }; got ${describeValue(t)}`);
    }
  }
  // an app's transport of a library kind takes that kind's place (the test-only faulty one does)
  return [...(extra as Transport[]), ...defaults.filter((d) => !(extra as Transport[]).some((t) => t.kind === d.kind))];
}

/** What `chooseTransport` settled on: the transport, and why the ones before it in the list were passed over. */
export interface TransportChoice {
  readonly transport: PageHalf;
  /** Why a more preferred transport could not be used (null when the first was): the isolation warning says it. */
  readonly passedOver: string | null;
}

/**
 * The transport a page runtime uses: the one named by `wanted` (throwing, with its reason, where it is not
 * available on `host`), or for 'auto' the first in `list` that is.
 */
export function chooseTransport(list: readonly PageHalf[], wanted: string, host: PageHost): TransportChoice {
  if (wanted !== 'auto') {
    const transport = list.find((t) => t.kind === wanted);
    if (transport === undefined) {
      throw new RangeError(`steadyframe: transport must be 'auto' or one of ${list.map((t) => `'${t.kind}'`).join(', ')}; got ${describeValue(wanted)}`);
    }
    const why = transport.available(host);
    if (why !== null) throw new Error(why);
    return { transport, passedOver: null };
  }
  let passedOver: string | null = null;
  for (const transport of list) {
    const why = transport.available(host);
    if (why === null) return { transport, passedOver };
    passedOver ??= why;
  }
  throw new Error(`steadyframe: no transport is available here: ${passedOver ?? 'none were given'}`);
}

/** The transport of `kind` in `list` (transports/library.ts's `DEFAULT_TRANSPORTS`, say); throws naming the ones there are. */
export function transportOfKind(kind: string, list: readonly Transport[]): Transport {
  const transport = list.find((t) => t.kind === kind);
  if (transport === undefined) throw new RangeError(`steadyframe: no '${kind}' transport (there are ${list.map((t) => `'${t.kind}'`).join(', ')})`);
  return transport;
}

/** The worker's half for the transport the page attached with (`config.kind`), from `list`. */
export function findTransport(list: readonly WorkerHalf[], config: AttachConfig): WorkerHalf {
  const transport = list.find((t) => t.kind === config?.kind);
  if (transport === undefined) {
    throw new TypeError(
      `steadyframe: the page attached over the '${String(config?.kind)}' transport, which this worker does not have ` +
        `(it has ${list.map((t) => `'${t.kind}'`).join(', ')}); pass the same transports to exposeSimulation(definition, { transports })`,
    );
  }
  return transport;
}
