/**
 * The console line a page gets when the runtime falls back to the message transport by itself: the page is not
 * cross-origin isolated, which is nearly always two missing response headers, and nothing else would say so
 * (the fallback works, only slower). Once per page; an explicit `transport: 'message'` is a choice, not a
 * mistake, and gets no warning.
 */
import type { TransportKind } from '../core/protocol.ts';

export const ISOLATION_WARNING =
  'steadyframe: this page is not cross-origin isolated, so the runtime uses the slower message transport; serve ' +
  'the page and its worker with the headers Cross-Origin-Opener-Policy: same-origin and ' +
  "Cross-Origin-Embedder-Policy: require-corp (or pass transport: 'message' to choose it without this warning)";

// Per realm on purpose: the headers are the page's, so one line per page says it all, however many runtimes
// the page makes.
let warned = false;

/** Warns (once per page) when `wanted` was 'auto' and the page got the message transport; says whether it did. */
export function warnIfNotIsolated(wanted: 'auto' | TransportKind, transport: TransportKind, warn: (message: string) => void = console.warn): boolean {
  if (warned || wanted !== 'auto' || transport !== 'message') return false;
  warned = true;
  warn(ISOLATION_WARNING);
  return true;
}
