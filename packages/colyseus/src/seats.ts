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
