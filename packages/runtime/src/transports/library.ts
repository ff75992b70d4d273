/**
 * The library's transports with both halves, in order of preference: for a thread that plays both sides (the
 * render worker joins the page's buffer) and for tests. Neither side's bundle imports this module: each takes its
 * own halves from the registry (transports/registry.ts), so the other side's code stays out of it.
 */
import type { Transport } from '../contracts/transport.ts';
import { messageTransport } from './message/transport.ts';
import { sharedTransport } from './shared/index.ts';

export const DEFAULT_TRANSPORTS: readonly Transport[] = [sharedTransport, messageTransport] as readonly Transport[];
