/**
 * The main-thread page of ours (main-thread.ts): a runtime whose worker is our network client, predicting this
 * player's disc, the rest of the 1,000 entities interpolated; each animation frame `runtime.frame(ts)` and the
 * positions copied out (what a game hands its renderer). A key held, a new one every second (`sendInput`).
 * `?server=ws://...&capacity=1000`.
 */
import { createRuntime } from 'steadyframe';
import type { NetworkCommands } from 'steadyframe/network';
import { CLIENT_WIDTH, oursSchema, STEER } from '../ours-game.ts';
import { runFrames } from './measure.ts';

const params = new URLSearchParams(location.search);
const capacity = Number(params.get('capacity'));
const worker = new Worker(new URL('./ours.worker.ts', import.meta.url), { type: 'module', name: 'network client' });
const runtime = await createRuntime<typeof oursSchema, NetworkCommands, { url: string }>({ worker, schema: oursSchema, capacity, setup: { url: params.get('server')! }, input: { payloadWidth: CLIENT_WIDTH } });
await runtime.start();
const out = new Float32Array(2 * capacity);
let turn = 0;
setInterval(() => {
  const a = (turn++ * Math.PI) / 3;
  runtime.sendInput(STEER, Math.cos(a), Math.sin(a), 0);
}, 1000);
const hooks = runFrames((ts) => {
  const frame = runtime.frame(ts);
  if (frame === null) return 0;
  out.set(frame.fields.position.subarray(0, 2 * frame.count));
  if (frame.count === capacity) hooks.ready = true;
  return frame.count;
});
