/**
 * Whether the page is visible. The runtime listens through this hook so that the worker sleeps while the tab
 * is hidden; tests (or embedders with their own notion of "hidden") pass their own.
 */
export interface VisibilityHook {
  readonly hidden: boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (hidden: boolean) => void): () => void;
}

/** The page's `visibilitychange`, or null where there is no document. */
export function documentVisibility(): VisibilityHook | null {
  if (typeof document === 'undefined') return null;
  return {
    get hidden() {
      return document.visibilityState === 'hidden';
    },
    subscribe(listener) {
      const onChange = () => listener(document.visibilityState === 'hidden');
      document.addEventListener('visibilitychange', onChange);
      return () => document.removeEventListener('visibilitychange', onChange);
    },
  };
}

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
