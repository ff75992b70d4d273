/**
 * The transports the library ships, and the choice among them: the only module that imports transport
 * implementations. A new transport is a folder beside these and one line in `DEFAULT_TRANSPORTS`.
 */
import type { PageHost } from '../contracts/host.ts';
import type { AttachConfig } from '../contracts/remote.ts';
import type { Transport } from '../contracts/transport.ts';
import { describeValue } from '../core/describe-value.ts';
import { messageTransport } from './message/index.ts';
import { sharedTransport } from './shared/index.ts';

/** In order of preference: the first one available is what 'auto' gets. */
export const DEFAULT_TRANSPORTS: readonly Transport[] = [sharedTransport, messageTransport] as readonly Transport[];

/** The transports an app named (its own first, then the library's), checked: each a `Transport` with a kind of its own. */
export function transportList(extra: unknown): readonly Transport[] {
  if (extra === undefined) return DEFAULT_TRANSPORTS;
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
  return [...(extra as Transport[]), ...DEFAULT_TRANSPORTS.filter((d) => !(extra as Transport[]).some((t) => t.kind === d.kind))];
}

/** What `chooseTransport` settled on: the transport, and why the ones before it in the list were passed over. */
export interface TransportChoice {
  readonly transport: Transport;
  /** Why a more preferred transport could not be used (null when the first was): the isolation warning says it. */
  readonly passedOver: string | null;
}

/**
 * The transport a page runtime uses: the one named by `wanted` (throwing, with its reason, where it is not
 * available on `host`), or for 'auto' the first in `list` that is.
 */
export function chooseTransport(list: readonly Transport[], wanted: string, host: PageHost): TransportChoice {
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

/** The transport of `kind` in `list` (the library's by default); throws naming the ones there are. */
export function transportOfKind(kind: string, list: readonly Transport[] = DEFAULT_TRANSPORTS): Transport {
  const transport = list.find((t) => t.kind === kind);
  if (transport === undefined) throw new RangeError(`steadyframe: no '${kind}' transport (there are ${list.map((t) => `'${t.kind}'`).join(', ')})`);
  return transport;
}

/** The worker's half for the transport the page attached with (`config.kind`), from `list`. */
export function findTransport(list: readonly Transport[], config: AttachConfig): Transport {
  const transport = list.find((t) => t.kind === config?.kind);
  if (transport === undefined) {
    throw new TypeError(
      `steadyframe: the page attached over the '${String(config?.kind)}' transport, which this worker does not have ` +
        `(it has ${list.map((t) => `'${t.kind}'`).join(', ')}); pass the same transports to exposeSimulation(definition, { transports })`,
    );
  }
  return transport;
}
