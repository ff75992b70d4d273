/**
 * A player of ours (player.ts): a client runtime whose worker is our network client predicting its own disc
 * (ours-client.ts, bundled for Node as an app ships it), connected through the benchmark's link. A key pressed or
 * a shot fired is `runtime.sendInput` at that moment (the page's handler); a frame is `runtime.frame(vsync)`.
 *
 * Where a frame's own disc stands on the server's timeline: its prediction draws the server time `s` = the
 * client's estimate of server now + its lead (`network().predicted.leadMs`, which includes the slew), so a frame
 * at client time t shows s = t + offset + leadMs, both read from `network()` every 50 ms (they move by ms a second).
 */
import { fileURLToPath } from 'node:url';
import type { Runtime } from 'steadyframe';
import type { NetworkCommands, NetworkStats } from 'steadyframe/network';
import { createNodeRuntime } from 'steadyframe/node';
import { buildWorkerModule } from 'steadyframe/testing/node';
import { CLIENT_WIDTH, oursSchema, SHOOT, STEER } from './ours-game.ts';
import type { Drawn, StackPlayer } from './player.ts';

let module: Promise<string> | null = null;
export const oursClientModule = () => (module ??= buildWorkerModule(fileURLToPath(new URL('./fixtures/ours-client.worker.ts', import.meta.url))));

export interface OursPlayer extends StackPlayer {
  readonly runtime: Runtime<typeof oursSchema, NetworkCommands>;
  network(): Promise<NetworkStats>;
}

/** Joins the server at `url` (ws://), waits until its prediction runs; `capacity` entities at most. */
export async function oursPlayer(url: string, capacity: number): Promise<OursPlayer> {
  const runtime = await createNodeRuntime<typeof oursSchema, NetworkCommands, { url: string }>({
    worker: await oursClientModule(),
    schema: oursSchema,
    capacity,
    setup: { url },
    input: { payloadWidth: CLIENT_WIDTH },
  });
  await runtime.start();
  let stats = await runtime.commands.network();
  for (const deadline = performance.now() + 30_000; !(stats.player >= 0 && (stats.predicted?.rebases ?? 0) > 5); stats = await runtime.commands.network()) {
    if (performance.now() > deadline) throw new Error(`steadyframe bench: our client did not predict in 30 s: ${JSON.stringify(stats)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const index = stats.player;
  let disposed = false;
  const polling = (async () => {
    while (!disposed) {
      stats = await runtime.commands.network();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    index,
    runtime,
    network: () => runtime.commands.network(),
    hold(dx, dy) {
      runtime.sendInput(STEER, dx, dy, 0);
    },
    shoot(shot, dx, dy) {
      runtime.sendInput(SHOOT, shot, dx, dy);
    },
    frame(vsync): Drawn | null {
      const f = runtime.frame(vsync);
      const players = runtime.state.players;
      if (f === null || f.count <= players || players < 1) return null;
      const p = f.fields.position;
      const other = players === 2 ? 1 - index : -1;
      return {
        vsync,
        self: [p[2 * index]!, p[2 * index + 1]!],
        other: other < 0 ? null : [p[2 * other]!, p[2 * other + 1]!],
        target: [p[2 * players]!, p[2 * players + 1]!],
        at: f.time + stats.offset + (stats.predicted?.leadMs ?? 0),
      };
    },
    async dispose() {
      disposed = true;
      await polling;
      await runtime.dispose();
    },
  };
}
