/**
 * The console line a page gets when the runtime falls back from the transport it prefers by itself: on a browser
 * page that is nearly always two missing response headers (or an engine that keeps SharedArrayBuffer off), and
 * nothing else would say so (the fallback works, only slower). Once per page; an explicit `transport` is a
 * choice, not a mistake, and gets no warning.
 */

// Per realm on purpose: the headers are the page's, so one line per page says it all, however many runtimes
// the page makes.
let warned = false;

/**
 * Warns (once per page) when `wanted` was 'auto' and a more preferred transport was passed over for `reason`
 * (its own words: what is missing, and what to do); says whether it did.
 */
export function warnFallback(wanted: string, chosen: string, reason: string | null, warn: (message: string) => void = console.warn): boolean {
  if (warned || wanted !== 'auto' || reason === null) return false;
  warned = true;
  warn(`${reason.replace(/\.?$/, '')}; so the runtime uses the slower ${chosen} transport (pass transport: '${chosen}' to choose it without this warning)`);
  return true;
}
