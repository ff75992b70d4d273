/**
 * The duel the benchmark plays on each stack and link, driving two players (player.ts) as two pages would: a
 * frame each on a 60 Hz vsync grid, keys and clicks at random moments between frames (handlers run when the user
 * acts, not on the grid). Three acts, one session:
 *
 * ```text
 *  presses    player 0 alone, at rest: a key held 250 ms (right, left, up, down, ...), released, 400 ms at rest;
 *             its frames say when the disc first moved (metrics.ts)
 *  collisions player 1 chases player 0 (steering at where its own frames show it, re-aimed every 100 ms), player 0
 *             wanders, a new key every 300-700 ms: 40% of them at where its frames show player 1, 15% none, the rest
 *             one of 8 directions (towards the centre near a wall); player 0's frames against the server's record
 *             (metrics.ts, truth.ts)
 *  shots      both park; the target circles at game speed; player 0 clicks every 150-250 ms, aiming at the target
 *             of its last frame, off its centre by a Gaussian offset (σ half its radius) (metrics.ts)
 * ```
 *
 * Seeded: the same moments, keys and aims on both stacks (their frames differ, so the aims they yield differ).
 */
import { mulberry32 } from 'steadyframe/testing/node';
import { rayOffset, TARGET_RADIUS } from './game.ts';
import type { Drawn, Point, StackPlayer } from './player.ts';

export const FRAME_MS = 1000 / 60;

export interface Press {
  readonly time: number;
  readonly dir: Point;
  /** Player 0's own disc in the last frame before the press. */
  readonly rest: Point;
}

export interface Shot {
  readonly shot: number;
  readonly time: number;
  /** The ray's offset from the target's centre in the frame it was aimed at (a hit: |offset| < TARGET_RADIUS). */
  readonly screenOffset: number;
}

export interface DuelRecord {
  readonly presses: Press[];
  /** Player 0's frames, each act's from its start. */
  readonly frames: Drawn[];
  readonly collisionsFrom: number;
  readonly collisionsTo: number;
  readonly shots: Shot[];
  /** Frames whose callback ran more than 4 ms after their vsync (a loaded machine), of all. */
  readonly lateFrames: number;
  readonly allFrames: number;
}

export interface DuelOptions {
  readonly presses: number;
  readonly collisionMs: number;
  readonly shots: number;
  readonly seed: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const DIRS: Point[] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/** Frames of both players on the vsync grid until stopped; `latest[i]` is player i's newest drawn frame. */
function frameLoop(players: StackPlayer[], onFrame: (i: number, d: Drawn) => void) {
  const latest: Array<Drawn | null> = players.map(() => null);
  let vsync = performance.now() + FRAME_MS;
  let stopped = false;
  let late = 0;
  let all = 0;
  let timer: ReturnType<typeof setTimeout>;
  const run = () => {
    if (stopped) return;
    all++;
    if (performance.now() - vsync > 4) late++;
    for (let i = 0; i < players.length; i++) {
      const d = players[i]!.frame(vsync);
      if (d === null) continue;
      latest[i] = d;
      onFrame(i, d);
    }
    const now = performance.now();
    vsync += FRAME_MS;
    while (vsync <= now) vsync += FRAME_MS;
    timer = setTimeout(run, vsync - now);
  };
  timer = setTimeout(run, FRAME_MS);
  return {
    latest,
    counts: () => ({ late, all }),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Steers `player` to `to` from where its frames show it, then lets go of the key. */
async function goTo(player: StackPlayer, latest: () => Drawn | null, to: Point, timeoutMs = 5000): Promise<void> {
  for (const deadline = performance.now() + timeoutMs; performance.now() < deadline; await sleep(50)) {
    const d = latest();
    if (d === null) continue;
    const dx = to[0] - d.self[0];
    const dy = to[1] - d.self[1];
    const r = Math.hypot(dx, dy);
    if (r < 0.12) break;
    player.hold(dx / r, dy / r);
  }
  player.hold(0, 0);
}

export async function playDuel(p0: StackPlayer, p1: StackPlayer, options: DuelOptions): Promise<DuelRecord> {
  const random = mulberry32(options.seed);
  const frames: Drawn[] = [];
  const loop = frameLoop([p0, p1], (i, d) => {
    if (i === 0) frames.push(d);
  });
  const self0 = () => loop.latest[0] ?? null;
  const self1 = () => loop.latest[1] ?? null;
  try {
    // both there and drawn; player 1 out of the way
    for (const deadline = performance.now() + 20_000; self0() === null || self1() === null; await sleep(50)) {
      if (performance.now() > deadline) throw new Error('steadyframe bench: the duel drew nothing in 20 s');
    }
    await goTo(p1, self1, [3.5, 3.5]);
    await sleep(500);

    const presses: Press[] = [];
    for (let k = 0; k < options.presses; k++) {
      await sleep(random() * FRAME_MS);
      const dir = DIRS[k % DIRS.length]!;
      presses.push({ time: performance.now(), dir, rest: self0()!.self });
      p0.hold(dir[0], dir[1]);
      await sleep(250);
      p0.hold(0, 0);
      await sleep(400);
    }

    const collisionsFrom = frames.length;
    const chase = setInterval(() => {
      const d = self1();
      if (d === null || d.other === null) return;
      const a = Math.atan2(d.other[1] - d.self[1], d.other[0] - d.self[0]) + (random() - 0.5) * 0.7;
      p1.hold(Math.cos(a), Math.sin(a));
    }, 100);
    for (const end = performance.now() + options.collisionMs; performance.now() < end; await sleep(300 + 400 * random())) {
      const d = self0();
      if (d === null) continue;
      const r = Math.hypot(d.self[0], d.self[1]);
      const choice = random();
      if (choice < 0.15) p0.hold(0, 0);
      else if (r > 3) p0.hold(-d.self[0] / r, -d.self[1] / r);
      else if (choice < 0.55 && d.other !== null) {
        // at player 1, as this frame shows it: head-on collisions as well as being caught
        const dx = d.other[0] - d.self[0];
        const dy = d.other[1] - d.self[1];
        const l = Math.hypot(dx, dy) || 1;
        p0.hold(dx / l, dy / l);
      } else {
        const a = Math.floor(random() * 8) * (Math.PI / 4);
        p0.hold(Math.cos(a), Math.sin(a));
      }
    }
    clearInterval(chase);
    const collisionsTo = frames.length;

    p0.hold(0, 0);
    p1.hold(0, 0);
    await Promise.all([goTo(p0, self0, [0, -3.5]), goTo(p1, self1, [4, -4])]);
    await sleep(1000);
    const shots: Shot[] = [];
    for (let shot = 1; shot <= options.shots; shot++) {
      await sleep(150 + 100 * random());
      await sleep(random() * FRAME_MS);
      const d = self0()!;
      // aim at the target as this frame shows it, off its centre by a Gaussian offset, across the line of sight
      const tx = d.target[0] - d.self[0];
      const ty = d.target[1] - d.self[1];
      const r = Math.hypot(tx, ty);
      const miss = 0.5 * TARGET_RADIUS * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const ax = tx + (-ty / r) * miss;
      const ay = ty + (tx / r) * miss;
      const a = Math.hypot(ax, ay);
      const screenOffset = rayOffset(d.self[0], d.self[1], ax / a, ay / a, d.target[0], d.target[1]);
      shots.push({ shot, time: performance.now(), screenOffset });
      p0.shoot(shot, ax / a, ay / a);
    }
    await sleep(1500);
    const { late, all } = loop.counts();
    return { presses, frames, collisionsFrom, collisionsTo, shots, lateFrames: late, allFrames: all };
  } finally {
    loop.stop();
  }
}
