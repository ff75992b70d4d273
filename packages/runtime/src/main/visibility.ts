/**
 * A visibility hook whose state the caller sets: for tests and for games that decide "hidden" themselves. The
 * document's own is the browser page host's (hosts/browser-page.ts).
 */
import type { VisibilityHook } from '../contracts/host.ts';

export type { VisibilityHook } from '../contracts/host.ts';

/** A hook whose state the caller sets: for tests and for games that decide "hidden" themselves. */
export function manualVisibility(hidden = false): VisibilityHook & { set(hidden: boolean): void } {
  const listeners = new Set<(hidden: boolean) => void>();
  return {
    get hidden() {
      return hidden;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (next === hidden) return;
      hidden = next;
      for (const listener of listeners) listener(hidden);
    },
  };
}
