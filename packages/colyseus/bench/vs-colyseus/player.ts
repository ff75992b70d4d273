/**
 * One player of the benchmark's game on either stack, as a page drives it: keys held and released and shots
 * fired when the player does it (between frames), and a frame drawn at each vsync, which says where it drew the
 * player's own disc, the other player's and the target. ours-player.ts and colyseus-player.ts implement it; the
 * scenes (scenes.ts) drive both the same way.
 */

export type Point = readonly [number, number];

export interface Drawn {
  /** The vsync the frame was drawn for (performance.now ms). */
  readonly vsync: number;
  readonly self: Point;
  readonly other: Point | null;
  readonly target: Point;
  /**
   * Where the frame's own disc stands in the server's history (see `Truth`): ours, the server time its prediction
   * drew (ms); Colyseus's, the number of inputs its prediction had stepped (the reconciler's sequence).
   */
  readonly at: number;
}

export interface StackPlayer {
  /** The player's number on its server (0 for the first to join). */
  readonly index: number;
  /** Holds a key: the unit direction (dx, dy), or (0, 0) for none (a keydown or keyup handler). */
  hold(dx: number, dy: number): void;
  /** Fires shot `shot` (1, 2, ...) along the unit (dx, dy) (a click handler). */
  shoot(shot: number, dx: number, dy: number): void;
  /** Draws the frame of `vsync`; null until the game is there to draw. */
  frame(vsync: number): Drawn | null;
  dispose(): Promise<void>;
}
