/**
 * The deadline of a worker's first answer at set-up (`attachTimeout`): real time, whatever the runtime's clock,
 * and only the time this thread was awake to hear the answer. One timer of the whole timeout would fire as soon
 * as a page held for longer than it (a blocked main thread, a debugger's pause) runs again, maybe before the
 * answer already waiting in its queue. Short timers instead: each counts at most two of its own steps,
 * however late it fires, so a held page's time is not counted against the worker. The reason it gives says how
 * long the page itself was held.
 */

/** How often the deadline looks, ms at most: an eighth of the timeout, up to this. */
const MAX_STEP = 250;

/**
 * Calls `onExpire` once `timeoutMs` of awake time have passed, unless the returned cancel is called first, with
 * the ms the page was held meanwhile (not counted). An infinite `timeoutMs` never expires. A look later than two
 * steps counts two: the rest of the gap, the page was held (a hidden page's timers, throttled to a second, count
 * half of it).
 */
export function attachDeadline(timeoutMs: number, onExpire: (heldMs: number) => void, now: () => number = () => performance.now()): () => void {
  const step = Math.min(MAX_STEP, timeoutMs / 8);
  let last = now();
  let counted = 0;
  let held = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = (): void => {
    const gap = now() - last;
    last += gap;
    counted += Math.min(gap, 2 * step);
    held += Math.max(0, gap - 2 * step);
    if (counted < timeoutMs) timer = setTimeout(look, step);
    else onExpire(held);
  };
  if (timeoutMs < Infinity) timer = setTimeout(look, step);
  return () => clearTimeout(timer);
}

/** " (not counting N ms this page was held)", or "" when it was never held. */
export const describeHeld = (heldMs: number): string => (heldMs < 1 ? '' : ` (not counting ${Math.round(heldMs)} ms this page was held)`);
