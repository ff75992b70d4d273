/**
 * The game's server: the shared world's simulation (game.worker.ts, bundled for Node by game-module.ts and run by
 * `createNodeRuntime`), its states to every connection at 20 a second (`createSnapshotPublisher`, hosted on a
 * `ws` WebSocketServer by `hostSnapshots`), players' inputs back into it with the render time each was made at
 * (`input.madeTime`: what a shot is judged by), and a player's ship gone when its connection closes (a LEAVE
 * input the host itself sends: the step reads every change of the world from its inputs). `npm run multiplayer`
 * starts it on the page's own server (the `/play` path); the e2e test starts it on a port of its own, behind
 * shaped relays, and reads what each connection was sent (`clients`). Each snapshot is on the schema's grid (the
 * step quantises its world) and, to a connection, a delta against the newest state it acknowledged.
 */
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { createNodeRuntime, createSnapshotPublisher, hostSnapshots, type PublisherClient, type Runtime, type SnapshotPublisher, type SocketHost } from 'steadyframe/node';
import { bundleGameWorker } from './game-module.ts';
import { CAPACITY, INPUT, INPUT_CODES, schema, SEED, SEND_EVERY, SERVER_INPUT_WIDTH, type GameSchema } from './schema.ts';

export interface GameServerOptions {
  /** Share this HTTP server (upgrades to `path` only), or listen on `port` of 127.0.0.1 (0: any free one). */
  readonly server?: Server;
  readonly path?: string;
  readonly port?: number;
}

export interface GameServer {
  /** Where pages connect: ws://127.0.0.1:port (with `port`), or the path on the shared server. */
  readonly url: string;
  readonly runtime: Runtime<GameSchema>;
  readonly publisher: SnapshotPublisher;
  readonly host: SocketHost;
  /**
   * The connections open now, in the order they came, each with what the publisher sent it (`stats`: snapshots and
   * bytes, and how many went as deltas against a state it acknowledged, and how many whole).
   */
  readonly clients: readonly PublisherClient[];
  close(): Promise<void>;
}

export async function startGameServer(options: GameServerOptions = {}): Promise<GameServer> {
  const runtime = await createNodeRuntime<GameSchema>({ worker: await bundleGameWorker(), schema, capacity: CAPACITY, seed: SEED, input: { payloadWidth: SERVER_INPUT_WIDTH } });
  await runtime.start();
  const publisher = createSnapshotPublisher(runtime, { every: SEND_EVERY, input: { codes: INPUT_CODES, madeTime: true } });
  const path = options.path ?? '/play';
  // the largest message a client of this publisher sends: ws refuses a bigger frame from its header
  const maxPayload = publisher.maxMessageBytes;
  const wss = options.server === undefined ? new WebSocketServer({ host: '127.0.0.1', port: options.port ?? 0, maxPayload }) : new WebSocketServer({ noServer: true, maxPayload });
  if (options.server !== undefined) {
    // upgrades to our path only: the page's server has its own (Vite's hot reload)
    options.server.on('upgrade', (request, socket, head) => {
      if (new URL(request.url ?? '/', 'http://x').pathname !== path) return;
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    });
  } else {
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  }
  const clients: PublisherClient[] = [];
  /** The server is shutting down: its connections close with it, and the simulation goes (no leaves to send). */
  let closing = false;
  const host = hostSnapshots(publisher, wss, {
    onClient(client, socket) {
      clients.push(client);
      // the player's ship goes when its connection does (the payload as the publisher lays a page's out: the player, a made time)
      socket.on('close', () => {
        clients.splice(clients.indexOf(client), 1);
        if (!closing) runtime.sendInput(INPUT.LEAVE, client.player, runtime.now());
      });
    },
  });
  // faster than the ticks: a state goes out within a few ms of its tick
  const publishing = setInterval(() => publisher.publish(), 1000 / 240);
  const port = options.server === undefined ? (wss.address() as { port: number }).port : 0;
  return {
    url: options.server === undefined ? `ws://127.0.0.1:${port}` : path,
    runtime,
    publisher,
    host,
    clients,
    async close() {
      closing = true;
      clearInterval(publishing);
      host.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      runtime.dispose();
    },
  };
}
