/**
 * A player of Colyseus's (player.ts): @colyseus/sdk 0.18 set up as its netcode guide ("Client Prediction",
 * "Lag Compensation") sets one up:
 *
 * ```ts
 * const predict = Predict.get(room, { mode: 'lerp', delay: 100 });           // remotes 100 ms in the past
 * predict.attachAll('players', { mode: 'lerp', fields: ['x', 'y'] });
 * predict.attach(room.state.target, { mode: 'lerp', fields: ['x', 'y'] });   // the target, as a remote
 * const input = room.input();                                                 // the server's MoveInput
 * const me = predict.reconciler(self, { input, step: (ctx, s, cmd) => applyInput(s, cmd, ctx.dt), smoothMs: 65 });
 * // each frame: n = predict.tick(now); n times stage the held key (and a shot) and input.send(); then read
 * // predict.value(...) for what to draw
 * ```
 *
 * The input handle stamps each input with the render time (the lerp delay bound by the reconciler), which the
 * room's `rewind.lastSeenBy` reads. A key is held from its handler on; a shot goes with the frame's first input
 * (Colyseus sends an input only on a fixed step: the guide's order is tick, send, then read).
 *
 * Where a frame's own disc stands in the server's history: the reconciler's prediction has stepped every input
 * sent (`input.sentCount`), and the room logs how many of this client's inputs each step had consumed.
 */
import { Client, Predict, type Room } from '@colyseus/sdk';
import { applyInput } from './colyseus-game.ts';
import type { Drawn, StackPlayer } from './player.ts';

export interface ColyseusPlayer extends StackPlayer {
  readonly room: Room;
}

export interface JoinOptions {
  /** Create a room with these options, or join this room. */
  readonly create?: { readonly humans: number; readonly bots: number; readonly orbs: number };
  readonly roomId?: string;
}

type Values = { x: number; y: number };
type Command = { moveX: number; moveY: number; shot: number; aimX: number; aimY: number };

/** Joins through `url` (http://, the SDK's endpoint); resolves once its disc and the target are in its state. */
export async function colyseusPlayer(url: string, join: JoinOptions): Promise<ColyseusPlayer> {
  const client = new Client(url);
  const room: Room = join.create !== undefined ? await client.create('game', join.create) : await client.joinById(join.roomId!);
  const state = room.state as { players: Map<string, Values>; target: Values };
  for (const deadline = performance.now() + 30_000; state.players?.get(room.sessionId) === undefined; ) {
    if (performance.now() > deadline) throw new Error('steadyframe bench: the Colyseus client had no state in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const self = state.players.get(room.sessionId)!;
  const index = [...state.players.keys()].filter((k) => !k.startsWith('bot-')).indexOf(room.sessionId);
  const predict = Predict.get(room, { mode: 'lerp', delay: 100 });
  predict.attachAll('players', { mode: 'lerp', fields: ['x', 'y'] });
  predict.attach(state.target, { mode: 'lerp', fields: ['x', 'y'] });
  const input = room.input<Command>();
  predict.reconciler(self, { input, step: (ctx, s, cmd) => applyInput(s, cmd, ctx.dt), smoothMs: 65 });
  const key = [0, 0];
  let shot: { shot: number; dx: number; dy: number } | null = null;
  const data = input.data;
  const point = (of: Values) => [predict.value(of as never, 'x' as never), predict.value(of as never, 'y' as never)] as const;
  return {
    index,
    room,
    hold(dx, dy) {
      key[0] = dx;
      key[1] = dy;
    },
    shoot(id, dx, dy) {
      shot = { shot: id, dx, dy };
    },
    frame(vsync): Drawn | null {
      const n = predict.tick(vsync);
      for (let i = 0; i < n; i++) {
        data.moveX = key[0]!;
        data.moveY = key[1]!;
        data.shot = shot?.shot ?? 0;
        data.aimX = shot?.dx ?? 0;
        data.aimY = shot?.dy ?? 0;
        shot = null;
        input.send();
      }
      let other: Values | undefined;
      for (const [k, v] of state.players) if (k !== room.sessionId && !k.startsWith('bot-')) other = v;
      return { vsync, self: point(self), other: other === undefined ? null : point(other), target: point(state.target), at: input.sentCount };
    },
    async dispose() {
      predict.dispose();
      await room.leave(true);
    },
  };
}
