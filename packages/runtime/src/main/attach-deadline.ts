/**
 * The deadline of a worker's first answer at set-up (`attachTimeout`): real time, whatever the runtime's clock,
 * and only the time this thread was awake to hear the answer. One timer of the whole timeout would fire as soon
 * as a page held for longer than it (a blocked main thread, a debugger's pause) runs again, maybe before the
 * answer already waiting in its queue. Short timers instead: each counts at most a few of its own steps,
 * however late it fires, so a held page's time is not counted against the worker. The reason it gives says how
 * long was waited and how much of that the page itself was held.
 */

/** How often the deadline looks, ms at most: an eighth of the timeout, up to this. */
const MAX_STEP = 250;

/** What `onExpire` is told: ms waited in all, and of them ms the page was held (not counted). */
export interface AttachWait {
  readonly waitedMs: number;
  readonly heldMs: number;
}

/**
 * Calls `onExpire` once `timeoutMs` of awake time have passed, unless the returned cancel is called first.
 * An infinite `timeoutMs` never expires.
 */
export function attachDeadline(timeoutMs: number, onExpire: (wait: AttachWait) => void, now: () => number = () => performance.now()): () => void {
  if (!Number.isFinite(timeoutMs)) return () => {};
  const started = now();
  let last = started;
  let counted = 0;
  // a look later than two steps counts two: the rest of the gap, the page was held (a hidden page's timers,
  // throttled to a second, count half of it)
  const step = Math.min(MAX_STEP, timeoutMs / 8);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = (): void => {
    const at = now();
    counted += Math.min(at - last, 2 * step);
    last = at;
    if (counted >= timeoutMs) {
      timer = undefined;
      const waitedMs = at - started;
      onExpire({ waitedMs, heldMs: Math.max(0, waitedMs - counted) });
      return;
    }
    timer = setTimeout(look, Math.min(step, timeoutMs - counted));
  };
  timer = setTimeout(look, step);
  return () => clearTimeout(timer);
}

/** " (waited N ms, M of them with this page held)", or "" when the page was never held. */
export function describeWait({ waitedMs, heldMs }: AttachWait): string {
  return heldMs < 1 ? '' : ` (waited ${waitedMs.toFixed(0)} ms, ${heldMs.toFixed(0)} of them with this page held, not counted)`;
}
