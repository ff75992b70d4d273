/**
 * Our server in the benchmark, as the multiplayer guide sets one up: a Node runtime running the game (`worker`:
 * fixtures/ours-server.worker.ts, bundled), its snapshot publisher (every third tick, the clients' inputs with
 * their made time) hosted on a `ws` server of 127.0.0.1 and polled every 2 ms. The step's events (each shot's
 * verdict, each client's disc every step) stay on the server (`events: false`): the benchmark takes them. Runs in
 * a process of its own (processes/ours.process.ts; ours-server.ts starts it).
 */
import { WebSocketServer } from 'ws';
import type { Runtime } from 'steadyframe';
import { createNodeRuntime, createSnapshotPublisher, hostSnapshots, type PublisherClient } from 'steadyframe/node';
import { SEND_EVERY } from './game.ts';
import { CLIENT_WIDTH, oursSchema, POSE, SHOOT, VERDICT, type OursSetup } from './ours-game.ts';

export interface OursVerdict {
  readonly shot: number;
  readonly hit: boolean;
  readonly offset: number;
  readonly clamped: boolean;
}

export interface OursHost {
  /** http://127.0.0.1:port (the relay's target; ws:// on it is the publisher's host). */
  readonly url: string;
  readonly runtime: Runtime<typeof oursSchema>;
  /** Each client's disc at every step: time (the tick's shared-clock ms), x, y, flattened, by player. */
  readonly poses: Map<number, number[]>;
  readonly verdicts: OursVerdict[];
  /** The publisher's clients, as they connected (their counters: inputs late, missed...). */
  readonly clients: PublisherClient[];
  close(): Promise<void>;
}

export async function startOursHost(setup: OursSetup, worker: string): Promise<OursHost> {
  const runtime = await createNodeRuntime<typeof oursSchema, object, OursSetup>({
    worker,
    schema: oursSchema,
    capacity: setup.players + 1 + setup.orbs,
    setup,
    // the player and the made time first, then the client's values
    input: { payloadWidth: 2 + CLIENT_WIDTH },
  });
  await runtime.start();
  const publisher = createSnapshotPublisher(runtime, { every: SEND_EVERY, input: { codes: SHOOT + 1, madeTime: true }, events: false });
  const sockets = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: publisher.maxMessageBytes });
  await new Promise<void>((resolve) => sockets.on('listening', () => resolve()));
  const clients: PublisherClient[] = [];
  const host = hostSnapshots(publisher, sockets, { onClient: (c) => clients.push(c) });
  const publishing = setInterval(() => publisher.publish(), 2);
  const poses = new Map<number, number[]>();
  const verdicts: OursVerdict[] = [];
  const take = () =>
    runtime.takeEvents((e) => {
      if (e.code === POSE) {
        const player = e.payload(0);
        if (!poses.has(player)) poses.set(player, []);
        poses.get(player)!.push(e.payload(3), e.payload(1), e.payload(2));
      } else if (e.code === VERDICT) verdicts.push({ shot: e.payload(0), hit: e.payload(1) === 1, offset: e.payload(2), clamped: e.payload(3) === 1 });
    });
  const taking = setInterval(take, 20);
  let closed = false;
  return {
    url: `http://127.0.0.1:${(sockets.address() as { port: number }).port}`,
    runtime,
    poses,
    verdicts,
    clients,
    async close() {
      if (closed) return;
      closed = true;
      take();
      clearInterval(taking);
      clearInterval(publishing);
      host.close();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await runtime.dispose();
    },
  };
}
