/**
 * The game rules, run by the worker's `step` on the world's own arrays: the schema's three tables, the ship,
 * the bullets and the rocks (`world.tables`). Bullets and rocks are spawned in their tables; a hit marks the
 * bullet and the rock dead, and each table's dead are despawned in one backward pass (so the swap-with-last
 * never skips anyone); crossing an edge wraps with the table's `snap`, so nothing streaks. No entity is kept
 * from one tick to the next by index (the ship is the ships table's only one), so no handle is needed.
 * Score, lives and the counts go to the world's game fields (`world.state`) at the end of every step, and every
 * shot and burst rock is a `tick.emit`: the page shows them, and answers them, with the frame that shows the tick.
 */
import type { SimulationContext, TickInfo, World } from 'steadyframe/worker';
import { Buttons } from './buttons.ts';
import { RockGrid } from './rock-grid.ts';
import {
  BUTTON, EVENT, HALF_H, HALF_W, ROCK_POINTS, ROCK_RADIUS, ROCK_TARGET, schema, SHIP_RADIUS, TICK_RATE, type ArenaSchema,
} from './schema.ts';

type ArenaWorld = World<ArenaSchema>;
type Table = ArenaWorld['tables'][keyof ArenaWorld['tables']];

const ROCKS = schema.$rocks.table.capacity;
const BULLETS = schema.$bullets.table.capacity;

const ACCEL = 140;
const DRAG = 2.2;
const MAX_SPEED = 55;
const BULLET_SPEED = 95;
const BULLET_LIFE = 1.1;
const FIRE_EVERY = 0.12;
const LIVES = 3;
const SAFE_TIME = 2;

export interface GameState {
  score: number;
  best: number;
  lives: number;
  rocks: number;
  bullets: number;
  shots: number;
  hits: number;
  crashes: number;
  tick: number;
  /** Input events the step has read, and presses per button (left, right, up, down, fire). */
  inputs: number;
  presses: number[];
  /** The tick that read each button's last press: the first tick it acted in. */
  pressTicks: number[];
}


/** What `Game.save` keeps: everything the rules carry from tick to tick outside the world. */
interface SavedGame {
  state: GameState;
  cooldown: number;
  fireQueued: boolean;
  facing: number;
  buttons: Pick<Buttons, 'held' | 'tapped' | 'events' | 'presses' | 'pressTicks'>;
}

export class Game {
  readonly buttons = new Buttons();
  readonly state: GameState = {
    score: 0, best: 0, lives: LIVES, rocks: 0, bullets: 0, shots: 0, hits: 0, crashes: 0, tick: 0, inputs: 0, presses: [], pressTicks: [],
  };
  #cooldown = 0;
  #fireQueued = false;
  #facing = Math.PI / 2;
  readonly #grid = new RockGrid(ROCKS);
  /** Marked by this tick's hits and ages, despawned at its end (`#compact`), by index within their table. */
  readonly #deadRocks = new Uint8Array(ROCKS);
  readonly #deadBullets = new Uint8Array(BULLETS);
  readonly #splits: number[] = []; // x, y, vx, vy, tier per rock to split
  /** The step's tick, for `emit` (set at the start of every step; `init` emits nothing). */
  #tick: TickInfo | null = null;
  /**
   * The run's seeded generator (`context.random`, the one `tick.random` is): every draw comes from it, never
   * from `Math.random`, so a seed and the inputs replay a session bit for bit.
   */
  #random: () => number = () => {
    throw new Error('arena: init() first');
  };

  /** A new game on an empty world: the ship in the middle, a field of rocks (also `restart('scratch')`). */
  init(world: ArenaWorld, context: SimulationContext): void {
    this.#random = context.random;
    this.#tick = null;
    Object.assign(this.state, { score: 0, lives: LIVES, rocks: 0, bullets: 0, shots: 0, hits: 0, crashes: 0, tick: 0 });
    this.#cooldown = 0;
    this.#fireQueued = false;
    this.#facing = Math.PI / 2;
    this.#splits.length = 0;
    const { ships, bullets, rocks } = world.tables;
    ships.count = 1;
    bullets.count = 0;
    rocks.count = 0;
    this.#placeShip(world);
    while (rocks.count < ROCK_TARGET) {
      const x = this.#rand(-HALF_W, HALF_W);
      const y = this.#rand(-HALF_H, HALF_H);
      if (Math.hypot(x, y) > 22) this.#spawnRock(world, x, y, Math.floor(this.#rand(0, 3)), 0, 0);
    }
    this.#publish(world);
  }

  /**
   * The game's state outside the world (score and lives, the gun's cooldown, the heading, the buttons held), as
   * bytes: with `load` it lets a snapshot or a recording start mid-game (`save` and `load` in sim.worker.ts).
   * JSON keeps every number exactly.
   */
  save(): Uint8Array {
    const b = this.buttons;
    const saved: SavedGame = {
      state: this.state,
      cooldown: this.#cooldown,
      fireQueued: this.#fireQueued,
      facing: this.#facing,
      buttons: { held: b.held, tapped: b.tapped, events: b.events, presses: b.presses, pressTicks: b.pressTicks },
    };
    return new TextEncoder().encode(JSON.stringify(saved));
  }

  load(bytes: Uint8Array): void {
    const saved = JSON.parse(new TextDecoder().decode(bytes)) as SavedGame;
    Object.assign(this.state, saved.state);
    this.#cooldown = saved.cooldown;
    this.#fireQueued = saved.fireQueued;
    this.#facing = saved.facing;
    const b = this.buttons;
    for (const key of ['held', 'tapped', 'presses', 'pressTicks'] as const) (b[key] as Array<boolean | number>).splice(0, b[key].length, ...saved.buttons[key]);
    b.events = saved.buttons.events;
  }

  step(world: ArenaWorld, tick: TickInfo): void {
    const { dt } = tick;
    this.#tick = tick;
    const b = this.buttons;
    b.read(tick.input, tick.tick);
    if (b.tapped[BUTTON.fire]) this.#fireQueued = true;
    this.#steer(world, dt);
    this.#cooldown -= dt;
    if ((this.#fireQueued || b.held[BUTTON.fire]) && this.#cooldown <= 0) {
      this.#fire(world);
      this.#fireQueued = false;
      this.#cooldown = FIRE_EVERY;
    }
    this.#move(world, dt);
    this.#collide(world);
    this.#compact(world.tables.bullets, this.#deadBullets);
    this.#compact(world.tables.rocks, this.#deadRocks);
    for (let s = 0; s < this.#splits.length; s += 5) {
      const [x, y, vx, vy, tier] = this.#splits.slice(s, s + 5) as [number, number, number, number, number];
      for (let k = 0; k < 2; k++) this.#spawnRock(world, x, y, tier - 1, vx + this.#rand(-9, 9), vy + this.#rand(-9, 9));
    }
    this.#splits.length = 0;
    for (let n = 0; n < 6 && world.tables.rocks.count < ROCK_TARGET; n++) this.#spawnEdgeRock(world);
    const s = this.state;
    s.tick = tick.tick;
    s.inputs = b.events;
    s.presses = b.presses.slice();
    s.pressTicks = b.pressTicks.slice();
    this.#publish(world);
  }

  /** The game's numbers into the world's game fields: the page reads them from the frame that shows this tick. */
  #publish(world: ArenaWorld): void {
    const s = this.state;
    const { ships, bullets, rocks } = world.tables;
    s.rocks = rocks.count;
    s.bullets = bullets.count;
    const g = world.state;
    g.score = s.score;
    g.best = s.best;
    g.lives = s.lives;
    g.rocks = s.rocks;
    g.bullets = s.bullets;
    g.shots = s.shots;
    g.hits = s.hits;
    g.crashes = s.crashes;
    g.shield = ships.fields.safe[0]!;
  }

  #placeShip(world: ArenaWorld): void {
    const ships = world.tables.ships;
    const f = ships.fields;
    f.position.fill(0, 0, 2);
    f.velocity.fill(0, 0, 2);
    f.heading[0] = this.#facing;
    f.safe[0] = SAFE_TIME; // seconds of safety left (the page blinks it)
    ships.snap(0);
  }

  #steer(world: ArenaWorld, dt: number): void {
    const { velocity, heading, safe } = world.tables.ships.fields;
    const b = this.buttons;
    let ax = (b.active(BUTTON.right) ? 1 : 0) - (b.active(BUTTON.left) ? 1 : 0);
    let ay = (b.active(BUTTON.up) ? 1 : 0) - (b.active(BUTTON.down) ? 1 : 0);
    if (ax !== 0 || ay !== 0) {
      this.#facing = Math.atan2(ay, ax);
      const n = Math.hypot(ax, ay);
      ax /= n;
      ay /= n;
    }
    const drag = Math.exp(-DRAG * dt);
    let vx = (velocity[0]! + ax * ACCEL * dt) * drag;
    let vy = (velocity[1]! + ay * ACCEL * dt) * drag;
    const speed = Math.hypot(vx, vy);
    if (speed > MAX_SPEED) {
      vx *= MAX_SPEED / speed;
      vy *= MAX_SPEED / speed;
    }
    velocity[0] = vx;
    velocity[1] = vy;
    heading[0] = this.#facing;
    safe[0] = Math.max(0, safe[0]! - dt);
  }

  #fire(world: ArenaWorld): void {
    const bullets = world.tables.bullets;
    const i = bullets.spawn();
    if (i < 0) return;
    const ship = world.tables.ships.fields;
    const { position, velocity, heading, life } = bullets.fields;
    const cx = Math.cos(this.#facing);
    const cy = Math.sin(this.#facing);
    position[2 * i] = ship.position[0]! + cx * 2.4;
    position[2 * i + 1] = ship.position[1]! + cy * 2.4;
    velocity[2 * i] = ship.velocity[0]! + cx * BULLET_SPEED;
    velocity[2 * i + 1] = ship.velocity[1]! + cy * BULLET_SPEED;
    heading[i] = this.#facing;
    life[i] = BULLET_LIFE;
    this.state.shots++;
    this.#tick?.emit(EVENT.shot, position[2 * i]!, position[2 * i + 1]!); // a full ring loses it (counted): only a sound
  }

  #spawnRock(world: ArenaWorld, x: number, y: number, tierOf: number, vx: number, vy: number): void {
    if (tierOf < 0) return;
    const rocks = world.tables.rocks;
    const i = rocks.spawn();
    if (i < 0) return;
    const { position, velocity, rotation, spin, size, tier } = rocks.fields;
    const r = ROCK_RADIUS[tierOf as 0 | 1 | 2];
    const drift = (3 - tierOf) * 3;
    position[2 * i] = x;
    position[2 * i + 1] = y;
    velocity[2 * i] = vx + this.#rand(-drift, drift);
    velocity[2 * i + 1] = vy + this.#rand(-drift, drift);
    for (let k = 0; k < 3; k++) {
      spin[3 * i + k] = this.#rand(-2, 2);
      size[3 * i + k] = r * this.#rand(0.75, 1.2);
    }
    const q = [this.#rand(-1, 1), this.#rand(-1, 1), this.#rand(-1, 1), this.#rand(-1, 1)];
    const n = Math.hypot(...q) || 1;
    rotation.set(q.map((v) => v / n), 4 * i);
    tier[i] = tierOf;
  }

  /** A uniform draw in [a, b) from the run's generator. */
  #rand(a: number, b: number): number {
    return a + this.#random() * (b - a);
  }

  #spawnEdgeRock(world: ArenaWorld): void {
    const p = world.tables.ships.fields.position;
    const onSide = this.#random() < 0.5;
    const x = onSide ? HALF_W * Math.sign(this.#rand(-1, 1)) : this.#rand(-HALF_W, HALF_W);
    const y = onSide ? this.#rand(-HALF_H, HALF_H) : HALF_H * Math.sign(this.#rand(-1, 1));
    if (Math.hypot(x - p[0]!, y - p[1]!) < 25) return;
    this.#spawnRock(world, x, y, 2, 0, 0);
  }

  /** Moves everyone, turns the rocks, ages the bullets, and wraps at the edges (a teleport: `snap`). */
  #move(world: ArenaWorld, dt: number): void {
    const { ships, bullets, rocks } = world.tables;
    wrapMove(ships, dt);
    wrapMove(bullets, dt);
    wrapMove(rocks, dt);
    const life = bullets.fields.life;
    for (let i = 0; i < bullets.count; i++) {
      life[i] = life[i]! - dt;
      if (life[i]! <= 0) this.#deadBullets[i] = 1;
    }
    const { rotation: q, spin: w } = rocks.fields;
    for (let i = 0; i < rocks.count; i++) {
      // q += dt/2 * (w, 0) * q, then normalise
      const o = 4 * i;
      const [qx, qy, qz, qs] = [q[o]!, q[o + 1]!, q[o + 2]!, q[o + 3]!];
      const [wx, wy, wz] = [w[3 * i]! * dt * 0.5, w[3 * i + 1]! * dt * 0.5, w[3 * i + 2]! * dt * 0.5];
      const nx = qx + wx * qs + wy * qz - wz * qy;
      const ny = qy - wx * qz + wy * qs + wz * qx;
      const nz = qz + wx * qy - wy * qx + wz * qs;
      const ns = qs - wx * qx - wy * qy - wz * qz;
      const n = Math.hypot(nx, ny, nz, ns);
      q[o] = nx / n;
      q[o + 1] = ny / n;
      q[o + 2] = nz / n;
      q[o + 3] = ns / n;
    }
  }

  #collide(world: ArenaWorld): void {
    const { ships, bullets, rocks } = world.tables;
    const { position: p, velocity: v, tier } = rocks.fields;
    const deadRocks = this.#deadRocks;
    this.#grid.build(p, rocks.count);
    // after #score, so a burst carries the score that counts it
    const kill = (rock: number): void => {
      deadRocks[rock] = 1;
      this.#splits.push(p[2 * rock]!, p[2 * rock + 1]!, v[2 * rock]!, v[2 * rock + 1]!, tier[rock]!);
      this.#tick?.emit(EVENT.burst, p[2 * rock]!, p[2 * rock + 1]!, tier[rock]!, this.state.score);
    };
    const { position: bp, velocity: bv } = bullets.fields;
    for (let b = 0; b < bullets.count; b++) {
      if (this.#deadBullets[b]) continue;
      // the bullet's path this tick, so a fast bullet cannot jump over a small rock
      const x1 = bp[2 * b]!, y1 = bp[2 * b + 1]!;
      const dx = bv[2 * b]! / TICK_RATE, dy = bv[2 * b + 1]! / TICK_RATE;
      const x0 = x1 - dx, y0 = y1 - dy;
      const len2 = dx * dx + dy * dy || 1;
      this.#grid.near(x1 - dx / 2, y1 - dy / 2, (r) => {
        if (deadRocks[r]) return false;
        const t = Math.max(0, Math.min(1, ((p[2 * r]! - x0) * dx + (p[2 * r + 1]! - y0) * dy) / len2));
        const rad = ROCK_RADIUS[tier[r] as 0 | 1 | 2] + 0.3;
        if (Math.hypot(p[2 * r]! - (x0 + t * dx), p[2 * r + 1]! - (y0 + t * dy)) > rad) return false;
        this.#deadBullets[b] = 1;
        this.state.hits++;
        this.#score(tier[r]!);
        kill(r);
        return true;
      });
    }
    const ship = ships.fields;
    if (ship.safe[0]! > 0) return; // still safe after the last crash
    // small rocks are rammed to dust (points); a medium or big one wrecks the ship
    const sx = ship.position[0]!;
    const sy = ship.position[1]!;
    let crashed = -1;
    this.#grid.near(sx, sy, (r) => {
      if (deadRocks[r]) return false;
      const hit = Math.hypot(p[2 * r]! - sx, p[2 * r + 1]! - sy) < ROCK_RADIUS[tier[r] as 0 | 1 | 2] * 0.85 + SHIP_RADIUS;
      if (!hit) return false;
      if (tier[r] === 0) {
        this.#score(0);
        kill(r);
        return false;
      }
      crashed = r;
      return true;
    });
    if (crashed < 0) return;
    kill(crashed);
    const s = this.state;
    s.crashes++;
    if (--s.lives <= 0) {
      s.lives = LIVES;
      s.score = 0;
    }
    this.#placeShip(world); // back to the middle: a teleport
  }

  #score(tierOf: number): void {
    this.state.score += ROCK_POINTS[tierOf as 0 | 1 | 2];
    this.state.best = Math.max(this.state.best, this.state.score);
  }

  /**
   * Despawns a table's dead, last first: each despawn moves the table's last entity (already looked at, and
   * alive) into the hole.
   */
  #compact(table: Table, dead: Uint8Array): void {
    for (let i = table.count - 1; i >= 0; i--) {
      if (dead[i] === 0) continue;
      table.despawn(i);
      dead[i] = 0;
    }
  }
}

/** Moves a table's entities by their velocity, wrapping at the edges (a teleport: `snap`). */
function wrapMove(table: Table, dt: number): void {
  const { position: p, velocity: v } = table.fields;
  for (let i = 0; i < table.count; i++) {
    let x = p[2 * i]! + v[2 * i]! * dt;
    let y = p[2 * i + 1]! + v[2 * i + 1]! * dt;
    const wrapped = x > HALF_W || x < -HALF_W || y > HALF_H || y < -HALF_H;
    if (x > HALF_W) x -= 2 * HALF_W;
    else if (x < -HALF_W) x += 2 * HALF_W;
    if (y > HALF_H) y -= 2 * HALF_H;
    else if (y < -HALF_H) y += 2 * HALF_H;
    p[2 * i] = x;
    p[2 * i + 1] = y;
    if (wrapped) table.snap(i);
  }
}
