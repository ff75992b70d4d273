/**
 * The main-thread page of Colyseus's (main-thread.ts): @colyseus/sdk 0.18 as its netcode guide sets a client up
 * (colyseus-player.ts has the same): `Predict` lerping every remote entity (the other players, the orbs, the
 * target), the reconciler predicting this player's disc; each animation frame `predict.tick(ts)`, the due inputs
 * sent, and every entity's `predict.value` copied out (what a game hands its renderer). The room's state arrives
 * and is decoded on this thread (the SDK's WebSocket handler, timed). A key held, a new one every second.
 * `?server=http://...&capacity=1000` (creates a room: 1 player, 49 bots the room steers, 949 orbs).
 */
import { runFrames, timeWebSocketHandlers } from './measure.ts';

// before the SDK is loaded: it takes the WebSocket class when its module runs
timeWebSocketHandlers();
const { Client, Predict } = await import('@colyseus/sdk');
const { applyInput } = await import('../colyseus-game.ts');

type Values = { x: number; y: number };
type Command = { moveX: number; moveY: number; shot: number; aimX: number; aimY: number };
const params = new URLSearchParams(location.search);
const capacity = Number(params.get('capacity'));
const room = await new Client(params.get('server')!).create('game', { humans: 1, bots: 49, orbs: capacity - 51 });
const state = room.state as { players: Map<string, Values>; orbs: Map<string, Values>; target: Values };
while (state.players?.get(room.sessionId) === undefined || state.orbs.size < capacity - 51) await new Promise((resolve) => setTimeout(resolve, 20));
const self = state.players.get(room.sessionId)!;
const predict = Predict.get(room, { mode: 'lerp', delay: 100 });
predict.attachAll('players', { mode: 'lerp', fields: ['x', 'y'] });
predict.attachAll('orbs', { mode: 'lerp', fields: ['x', 'y'] });
predict.attach(state.target, { mode: 'lerp', fields: ['x', 'y'] });
const input = room.input<Command>();
predict.reconciler(self, { input, step: (ctx, s, cmd) => applyInput(s, cmd, ctx.dt), smoothMs: 65 });
// what the game draws, in the order ours draws it: the players, the target, the orbs (the instances, kept once)
const entities: Values[] = [...state.players.values(), state.target, ...state.orbs.values()];
const out = new Float32Array(2 * capacity);
const key = [1, 0];
let turn = 0;
setInterval(() => {
  const a = (++turn * Math.PI) / 3;
  key[0] = Math.cos(a);
  key[1] = Math.sin(a);
}, 1000);
const hooks = runFrames((ts) => {
  const n = predict.tick(ts);
  for (let i = 0; i < n; i++) {
    input.data.moveX = key[0]!;
    input.data.moveY = key[1]!;
    input.send();
  }
  for (let i = 0; i < entities.length; i++) {
    out[2 * i] = predict.value(entities[i] as never, 'x' as never);
    out[2 * i + 1] = predict.value(entities[i] as never, 'y' as never);
  }
  hooks.ready = entities.length === capacity;
  return entities.length;
});
