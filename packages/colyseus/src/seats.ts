/**
 * A room's seats (ARCHITECTURE.md, "Rooms on Colyseus"): each Colyseus session holds one player number, the one
 * its input events carry to the game's step (the first payload value) and the one the snapshots tell its client.
 * A session that drops keeps its number through the reconnection window; a number is free again only when its
 * session has left for good, and a new session takes the lowest free one, so a room of n players numbers them
 * 0 to n − 1 and the game can size its world by `maxClients`.
 *
 * ```text
 *  join A → 0   join B → 1   A drops (window open: 0 kept)   join C → 2   A back → 0   A leaves → 0 free   join D → 0
 * ```
 */
export class Seats {
  readonly #players = new Map<string, number>();
  /** Free numbers below `#next`, lowest last (taken from the end). */
  readonly #free: number[] = [];
  #next = 0;

  /** The player number of a new session: the lowest free. Throws if the session holds one already. */
  take(sessionId: string): number {
    if (this.#players.has(sessionId)) throw new Error(`steadyframe: session ${sessionId} holds seat ${this.#players.get(sessionId)} already`);
    const player = this.#free.pop() ?? this.#next++;
    this.#players.set(sessionId, player);
    return player;
  }

  /**
   * Gives a session the seat it held in the room's save (a room restored in another process: failover.ts): the
   * same number, taken whatever is free. Throws if the session or the number is held already.
   */
  hold(sessionId: string, player: number): void {
    if (!Number.isInteger(player) || player < 0) throw new RangeError(`steadyframe: a seat is a whole number from 0; got ${String(player)}`);
    if (this.#players.has(sessionId)) throw new Error(`steadyframe: session ${sessionId} holds seat ${this.#players.get(sessionId)} already`);
    for (const held of this.#players.values()) if (held === player) throw new Error(`steadyframe: seat ${player} is held already`);
    // the numbers below it not held are free; it is no longer free itself
    for (let n = this.#next; n < player; n++) this.#free.push(n);
    this.#next = Math.max(this.#next, player + 1);
    const at = this.#free.indexOf(player);
    if (at !== -1) this.#free.splice(at, 1);
    this.#free.sort((a, b) => b - a);
    this.#players.set(sessionId, player);
  }

  /** Each session and the seat it holds. */
  entries(): IterableIterator<[string, number]> {
    return this.#players.entries();
  }

  /** The player number a session holds, or undefined. */
  of(sessionId: string): number | undefined {
    return this.#players.get(sessionId);
  }

  /** Frees the session's seat (it left for good); returns its number, or undefined if it held none. */
  free(sessionId: string): number | undefined {
    const player = this.#players.get(sessionId);
    if (player === undefined) return undefined;
    this.#players.delete(sessionId);
    this.#free.push(player);
    // lowest last: a new session takes the lowest free number
    this.#free.sort((a, b) => b - a);
    return player;
  }

  /** Seats held, by sessions joined or within their reconnection window. */
  get size(): number {
    return this.#players.size;
  }
}
