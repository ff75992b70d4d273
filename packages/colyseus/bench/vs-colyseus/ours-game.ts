/**
 * The benchmark's game (game.ts) as a steadyframe simulation: the server's worker exposes it
 * (fixtures/ours-server.worker.ts) and the measured client predicts its own disc with the same definition
 * (fixtures/ours-client.worker.ts). Inputs: STEER [dx, dy] (the held key, a unit vector or 0) and SHOOT [shot, dx,
 * dy] (a hit-scan along the unit (dx, dy), judged by `tick.rewind` at the input's made time); the publisher puts
 * the player and the made time first. Each shot's verdict is an event the benchmark takes on the server, as is
 * each client's disc at every step (POSE: the server's record of where it was, for the correction error).
 */
import { defineSchema } from 'steadyframe';
import { INPUT_MADE_TIME, INPUT_PLAYER, type SimulationDefinition } from 'steadyframe/worker';
import { botKey, hits, moveDisc, orbAt, rayOffset, separate, SPEED, startAt, targetAt, TICK_RATE } from './game.ts';

export const oursSchema = defineSchema({
  position: { width: 2, kind: 'linear' },
  velocity: { width: 2, kind: 'none' },
  /** Discs (players); the ones from `bots` on are steered by the step (the crowd scene's other players). */
  players: { kind: 'none', scope: 'game' },
  bots: { kind: 'none', scope: 'game' },
});

export const STEER = 0;
export const SHOOT = 1;
/** The client's values an input carries (SHOOT's three). */
export const CLIENT_WIDTH = 3;
/** The event a shot's verdict is: [shot, hit (1 or 0), offset of the ray from the rewound target, clamped (1 or 0)]. */
export const VERDICT = 0;
/** The event each step emits for each client's disc (for the benchmark's record): [player, x, y, the tick's time]. */
export const POSE = 1;

/** What the server's `init` makes: discs in a row (the first two apart), the target, then the orbs. */
export interface OursSetup {
  readonly players: number;
  readonly bots: number;
  readonly orbs: number;
}

const key = [0, 0];

export const oursGame: SimulationDefinition<typeof oursSchema, OursSetup> = {
  schema: oursSchema,
  tickRate: TICK_RATE,
  // lag compensation: the history of the last second (the guide's setting, the default window)
  rewind: true,
  init(world, setup) {
    world.count = setup.players + 1 + setup.orbs;
    world.state.players = setup.players;
    world.state.bots = setup.bots;
    for (let i = 0; i < setup.players; i++) startAt(i, world.fields.position);
    world.fields.velocity.fill(0);
    targetAt(0, world.fields.position, 2 * setup.players);
    for (let k = 0; k < setup.orbs; k++) orbAt(k, 0, world.fields.position, 2 * (setup.players + 1 + k));
  },
  step(world, tick) {
    const p = world.fields.position;
    const v = world.fields.velocity;
    const players = world.state.players;
    for (let i = 0; i < tick.input.length; i++) {
      const who = tick.input.payload(i, INPUT_PLAYER);
      if (tick.input.code(i) === STEER) {
        v[2 * who] = SPEED * tick.input.payload(i, 2);
        v[2 * who + 1] = SPEED * tick.input.payload(i, 3);
      } else if (tick.input.code(i) === SHOOT) {
        // the target as this player drew it when it fired; its own disc where it drew that, predicted: where it is now
        // (the input is applied at the tick it predicted it in)
        const seen = tick.rewind(tick.input.payload(i, INPUT_MADE_TIME));
        const q = seen.fields.position;
        const offset = rayOffset(p[2 * who]!, p[2 * who + 1]!, tick.input.payload(i, 3), tick.input.payload(i, 4), q[2 * players]!, q[2 * players + 1]!);
        tick.emit(VERDICT, tick.input.payload(i, 2), hits(offset) ? 1 : 0, offset, seen.clamped ? 1 : 0);
      }
    }
    for (let i = world.state.bots; i < players; i++) {
      botKey(i, tick.tick, key);
      v[2 * i] = SPEED * key[0]!;
      v[2 * i + 1] = SPEED * key[1]!;
    }
    for (let i = 0; i < players; i++) moveDisc(p, v, i, tick.dt);
    separate(p, players);
    targetAt(tick.tick, p, 2 * players);
    for (let k = 0; k < world.count - players - 1; k++) orbAt(k, tick.tick, p, 2 * (players + 1 + k));
    for (let i = 0; i < world.state.bots; i++) tick.emit(POSE, i, p[2 * i], p[2 * i + 1], tick.at);
  },
};
