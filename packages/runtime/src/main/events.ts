/** A small typed event emitter: `on(type, listener)` returns the unsubscribe function. */
export class Emitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<(event: never) => void>>();

  on<K extends keyof Events>(type: K, listener: (event: Events[K]) => void): () => void {
    let set = this.#listeners.get(type);
    if (set === undefined) this.#listeners.set(type, (set = new Set()));
    set.add(listener as (event: never) => void);
    return () => set.delete(listener as (event: never) => void);
  }

  /** Whether anyone listens: lets callers skip building an event nobody will read. */
  has(type: keyof Events): boolean {
    return (this.#listeners.get(type)?.size ?? 0) > 0;
  }

  emit<K extends keyof Events>(type: K, event: Events[K]): void {
    const set = this.#listeners.get(type);
    if (set === undefined) return;
    for (const listener of set) (listener as (event: Events[K]) => void)(event);
  }
}
