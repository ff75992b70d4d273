/**
 * The benchmark game (game.ts) as a Colyseus 0.18 room, set up as Colyseus's netcode guide ("Server Input &
 * Timestep", "Lag Compensation") sets one up: `defineInput(MoveInput, { bufferMaxSize: 64 })`,
 * `allowRewindState({ maxRewindMs: 500 })` with the players and the target attached (x, y), and a
 * `setFixedTimestep` step at 60 Hz that takes one input per player per step with `next()` (the guide's loop for a
 * shared world: the discs are pushed apart once a step) and applies it with the shared `applyInput`. A shot is
 * judged against `rewind.lastSeenBy(sessionId)`. Patches go at the default patchRate (50 ms, 20 a second).
 *
 * For the benchmark it also keeps what the server did: each client's disc at every step with the count of its
 * inputs consumed (the reconcile ack), the inputs waiting in its buffer, and every shot's verdict
 * (colyseus-server.ts reports them over IPC). Players past the first `humans` are bots the step steers.
 */
import { Room, type Client } from '@colyseus/core';
import { applyInput, Disc, GameState, MoveInput } from './colyseus-game.ts';
import { botKey, hits, moveAxis, orbAt, rayOffset, separate, SPEED, startAt, targetAt, TICK_RATE } from './game.ts';

export interface RoomOptions {
  readonly humans: number;
  readonly bots: number;
  readonly orbs: number;
}

export interface SessionLog {
  readonly index: number;
  /** Per step: the step, the inputs consumed so far, x, y, the inputs left in the buffer. */
  readonly steps: number[];
}

export interface Verdict {
  readonly session: string;
  readonly shot: number;
  readonly hit: boolean;
  readonly offset: number;
  /** The time the rewind read the target at, and the newest it had (its clamp's end). */
  readonly time: number;
  readonly newest: number;
  /** The input's render time as stamped, and the verdict there with only the history's own end as a clamp. */
  readonly renderTime: number;
  readonly hitUnclamped: boolean;
}

export const rooms = new Set<BenchRoom>();

export class BenchRoom extends Room {
  override state = new GameState();
  override inputs = this.defineInput(MoveInput, { bufferMaxSize: 64 });
  rewind = this.allowRewindState({ maxRewindMs: 500 });
  readonly log = new Map<string, SessionLog>();
  readonly verdicts: Verdict[] = [];
  #bots: Array<{ index: number; disc: Disc }> = [];
  #discs: Disc[] = [];
  #xy: number[] = [];
  readonly #key = [0, 0];
  readonly #at = [0, 0];

  override onCreate(options: RoomOptions): void {
    this.maxClients = options.humans;
    for (let b = 0; b < options.bots; b++) {
      const index = options.humans + b;
      const disc = new Disc();
      startAt(index, this.#at, 0);
      disc.x = this.#at[0]!;
      disc.y = this.#at[1]!;
      this.state.players.set(`bot-${index}`, disc);
      this.#bots.push({ index, disc });
    }
    targetAt(0, this.#at);
    this.state.target.x = this.#at[0]!;
    this.state.target.y = this.#at[1]!;
    for (let k = 0; k < options.orbs; k++) {
      const orb = new Disc();
      orbAt(k, 0, this.#at);
      orb.x = this.#at[0]!;
      orb.y = this.#at[1]!;
      this.state.orbs.set(String(k), orb);
    }
    this.rewind.attachAll(this.state.players, { fields: ['x', 'y'] });
    this.rewind.attach(this.state.target, { fields: ['x', 'y'] });
    this.setFixedTimestep((ctx) => this.step(ctx.tick, ctx.dt), TICK_RATE);
    rooms.add(this);
  }

  override onJoin(client: Client): void {
    const index = this.log.size;
    const disc = new Disc();
    startAt(index, this.#at, 0);
    disc.x = this.#at[0]!;
    disc.y = this.#at[1]!;
    this.state.players.set(client.sessionId, disc);
    this.log.set(client.sessionId, { index, steps: [] });
  }

  override onDispose(): void {
    rooms.delete(this);
  }

  step(tick: number, dt: number): void {
    for (const [session] of this.log) {
      const player = this.state.players.get(session);
      const input = player === undefined ? undefined : this.inputs.get(session).next();
      if (input === undefined) continue;
      applyInput(player!, input, dt);
      if (input.shot > 0) this.judge(session, player!, input);
    }
    for (const { index, disc } of this.#bots) {
      botKey(index, tick, this.#key);
      disc.x = moveAxis(disc.x, SPEED * this.#key[0]!, dt);
      disc.y = moveAxis(disc.y, SPEED * this.#key[1]!, dt);
    }
    this.#separate();
    targetAt(tick, this.#at);
    this.state.target.x = this.#at[0]!;
    this.state.target.y = this.#at[1]!;
    for (const [k, orb] of this.state.orbs) {
      orbAt(Number(k), tick, this.#at);
      orb.x = this.#at[0]!;
      orb.y = this.#at[1]!;
    }
    for (const [session, log] of this.log) {
      const player = this.state.players.get(session);
      const inputs = this.inputs.get(session);
      if (player !== undefined) log.steps.push(tick, inputs.consumedCount, player.x, player.y, inputs.size);
    }
  }

  /** A shot: the ray from the shooter's disc along its aim, against the target where the shooter saw it. */
  judge(session: string, shooter: Disc, input: MoveInput): void {
    const seen = this.rewind.lastSeenBy(session);
    const target = this.state.target;
    const offset = rayOffset(shooter.x, shooter.y, input.aimX, input.aimY, seen.value(target, 'x'), seen.value(target, 'y'));
    // for the report: the stamp itself, read without the window's clamp (the history keeps a little more)
    const renderTime = this.inputs.get(session).renderTime;
    const raw = rayOffset(shooter.x, shooter.y, input.aimX, input.aimY, this.rewind.valueAt(target, renderTime, 'x'), this.rewind.valueAt(target, renderTime, 'y'));
    this.verdicts.push({ session, shot: input.shot, hit: hits(offset), offset, time: seen.time, newest: this.rewind.lastRecordedAt, renderTime, hitUnclamped: hits(raw) });
  }

  /** The players' discs pushed apart (game.ts `separate`, over their coordinates in join order, bots after). */
  #separate(): void {
    const discs = this.#discs;
    discs.length = 0;
    for (const [session] of this.log) {
      const d = this.state.players.get(session);
      if (d !== undefined) discs.push(d);
    }
    for (const { disc } of this.#bots) discs.push(disc);
    const xy = this.#xy;
    xy.length = 0;
    for (const d of discs) xy.push(d.x, d.y);
    separate(xy, discs.length);
    for (let i = 0; i < discs.length; i++) {
      if (discs[i]!.x !== xy[2 * i]) discs[i]!.x = xy[2 * i]!;
      if (discs[i]!.y !== xy[2 * i + 1]) discs[i]!.y = xy[2 * i + 1]!;
    }
  }
}
