/**
 * The small game both stacks run in the side-by-side benchmark (vs-colyseus.measure.ts): discs steered by held
 * keys at game speed in a small arena, pushed apart when they overlap, a target that moves at game speed on a
 * circle, and hit-scan shots at it. Pure functions over numbers, so ours (a steadyframe simulation over
 * Float32Arrays: ours-game.ts) and Colyseus's (a Room over schema instances: colyseus-room.ts) run the same rules.
 *
 * ```text
 *   y  5 ┌──────────────────────────┐   entities: players 0 .. P − 1 (discs, radius 0.5), the target (index P),
 *        │        ╭──── ◯ ────╮      │             then orbs (the 1,000-entity scene only)
 *        │      ╭─╯ target on  ╰╮    │   a disc's velocity is its held key × SPEED (no key: still); walls
 *        │      │ a circle, r 2 │    │   clamp; overlapping discs are pushed apart (positions only, so the
 *        │      ╰╮   6 units/s ╭╯    │   velocity stays the key's on both stacks)
 *        │        ╰───────────╯      │
 *        │   ●──────▶ shot ray       │   a shot: a ray from the shooter's disc; it hits when the target's
 *     -5 └──────────────────────────┘   centre is ahead and within TARGET_RADIUS of it
 *       -5                          5 x
 * ```
 */

export const TICK_RATE = 60;
export const TICK_MS = 1000 / TICK_RATE;
/** Snapshots (ours) and patches (Colyseus's patchRate) every third tick: 20 a second on both. */
export const SEND_EVERY = 3;
export const PATCH_MS = SEND_EVERY * TICK_MS;
/** Units a second: a held key moves a disc 0.1 units a tick. */
export const SPEED = 6;
export const DISC_RADIUS = 0.5;
export const TARGET_RADIUS = 0.5;
export const HALF = 5;
/** The target's circle: centre, radius and angular speed (SPEED / radius: it moves at game speed). */
export const TARGET_CENTRE = [0, 1.5] as const;
export const TARGET_ORBIT = 2;
const TARGET_OMEGA = SPEED / TARGET_ORBIT;

/** The target's position at server tick `tick`. */
export function targetAt(tick: number, out: number[] | Float32Array, at = 0): void {
  const a = (tick / TICK_RATE) * TARGET_OMEGA;
  out[at] = TARGET_CENTRE[0] + TARGET_ORBIT * Math.cos(a);
  out[at + 1] = TARGET_CENTRE[1] + TARGET_ORBIT * Math.sin(a);
}

/** Orb `k`'s position at tick `tick`: a Lissajous path inside the arena at about game speed (the crowd scene). */
export function orbAt(k: number, tick: number, out: number[] | Float32Array, at = 0): void {
  const t = tick / TICK_RATE;
  const phase = k * 2.399963;
  out[at] = (HALF - 1) * Math.sin(0.9 * t + phase);
  out[at + 1] = (HALF - 1) * Math.sin(1.3 * t + 2 * phase);
}

/** A hash in [0, 1) of two integers (the bots' choices: the same on both stacks, no generator state). */
function hash(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2f);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
}

/** The key a step-driven bot (the crowd scene's other players) holds at `tick`: a new one every half second. */
export function botKey(player: number, tick: number, out: number[]): void {
  const h = hash(player, Math.floor(tick / 30));
  if (h < 0.2) {
    out[0] = 0;
    out[1] = 0;
    return;
  }
  const a = h * 2 * Math.PI;
  out[0] = Math.cos(a);
  out[1] = Math.sin(a);
}

/** A disc's coordinate `value` moved at `speed` (units a second) for `dt` seconds, inside the walls. */
export function moveAxis(value: number, speed: number, dt: number): number {
  const limit = HALF - DISC_RADIUS;
  return Math.max(-limit, Math.min(limit, value + speed * dt));
}

/** Moves disc `i` of `p` (x, y pairs) by its velocity in `v` over `dt` seconds (moveAxis on each). */
export function moveDisc(p: { [k: number]: number }, v: { [k: number]: number }, i: number, dt: number): void {
  p[2 * i] = moveAxis(p[2 * i]!, v[2 * i]!, dt);
  p[2 * i + 1] = moveAxis(p[2 * i + 1]!, v[2 * i + 1]!, dt);
}

/** Pushes apart the overlapping discs among the first `n` of `p` (x, y pairs), half each, positions only. */
export function separate(p: { [k: number]: number }, n: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = p[2 * j]! - p[2 * i]!;
      const dy = p[2 * j + 1]! - p[2 * i + 1]!;
      const d = Math.hypot(dx, dy);
      if (d >= 2 * DISC_RADIUS || d === 0) continue;
      const push = (2 * DISC_RADIUS - d) / 2;
      p[2 * i] = p[2 * i]! - (dx / d) * push;
      p[2 * i + 1] = p[2 * i + 1]! - (dy / d) * push;
      p[2 * j] = p[2 * j]! + (dx / d) * push;
      p[2 * j + 1] = p[2 * j + 1]! + (dy / d) * push;
    }
  }
}

/**
 * How far the ray from (ox, oy) along the unit (dx, dy) passes from the centre (tx, ty), signed (left of the ray
 * positive), or NaN when the centre is behind the origin. A hit: |result| < TARGET_RADIUS.
 */
export function rayOffset(ox: number, oy: number, dx: number, dy: number, tx: number, ty: number): number {
  const rx = tx - ox;
  const ry = ty - oy;
  if (rx * dx + ry * dy <= 0) return Number.NaN;
  return dx * ry - dy * rx;
}

export const hits = (offset: number): boolean => Math.abs(offset) < TARGET_RADIUS;

/** Where the scenes start disc `i`: the measured player's at (−3, −3), the second at (3, 3.5), the rest spread out. */
export function startAt(i: number, out: { [k: number]: number }, at = 2 * i): void {
  out[at] = i === 0 ? -3 : i === 1 ? 3 : -4 + ((i * 7) % 9);
  out[at + 1] = i === 0 ? -3 : i === 1 ? 3.5 : -4 + ((i * 3) % 9);
}
