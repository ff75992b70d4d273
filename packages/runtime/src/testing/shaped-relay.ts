/**
 * A WebSocket relay that shapes what crosses it like a bad network (for the multiplayer tests and the example's
 * e2e; never in a game): each connection to it opens one to `target`, and every message either way is delayed
 * by the connection's base delay (drawn once, from `baseMs`) plus its own jitter (uniform in ±`jitterMs`), so
 * messages overtake each other, or is lost (`loss`). Seeded: a run's draws repeat.
 *
 * ```text
 *  client ──ws──▶ relay ── delay (base + jitter), or lost ──ws──▶ target (the snapshot server)
 *         ◀──────        ◀── delay (base + jitter), or lost ─────
 * ```
 */
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { mulberry32 } from './prng.ts';

export interface LinkShape {
  /** The range each connection's base one-way delay is drawn from, ms (default [50, 150]). */
  readonly baseMs?: readonly [number, number];
  /** Each message's delay varies by up to this either way, ms (default 30). */
  readonly jitterMs?: number;
  /** The share of messages lost, each way (default 0.05). */
  readonly loss?: number;
  readonly seed?: number;
}

export interface ShapedRelay {
  /** The relay's own URL: give it to the clients. */
  readonly url: string;
  readonly stats: { forwarded: number; lost: number; connections: number };
  /** Drops every connection through it at once (the clients see their sockets close). */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Starts a relay on 127.0.0.1 (`port` 0: any free port) in front of the WebSocket server at `target`. */
export function createShapedRelay(target: string, shape: LinkShape = {}, port = 0): Promise<ShapedRelay> {
  const [low, high] = shape.baseMs ?? [50, 150];
  const jitter = shape.jitterMs ?? 30;
  const loss = shape.loss ?? 0.05;
  const random = mulberry32(shape.seed ?? 1);
  const stats = { forwarded: 0, lost: 0, connections: 0 };
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const sockets = new Set<WebSocket>();
  const server = new WebSocketServer({ host: '127.0.0.1', port });
  server.on('connection', (client) => {
    stats.connections++;
    const upstream = new WebSocket(target);
    sockets.add(client).add(upstream);
    const base = low + random() * (high - low);
    const pending: Array<() => void> = [];
    /** `data` on to `to` after the link's delay, or never. */
    const shaped = (to: WebSocket, data: RawData) => {
      if (random() < loss) {
        stats.lost++;
        return;
      }
      const bytes = Buffer.from(data as Buffer);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (to.readyState !== WebSocket.OPEN) return;
        stats.forwarded++;
        to.send(bytes);
      }, Math.max(0, base + (2 * random() - 1) * jitter));
      timers.add(timer);
    };
    client.on('message', (data) => {
      if (upstream.readyState === WebSocket.OPEN) shaped(upstream, data);
      else pending.push(() => shaped(upstream, data));
    });
    upstream.on('open', () => {
      for (const send of pending.splice(0)) send();
    });
    upstream.on('message', (data) => shaped(client, data));
    const end = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.close();
      upstream.close();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const at = typeof address === 'object' && address !== null ? address.port : port;
      resolve({
        url: `ws://127.0.0.1:${at}`,
        stats,
        dropConnections() {
          for (const socket of sockets) socket.terminate();
        },
        close() {
          for (const timer of timers) clearTimeout(timer);
          for (const socket of sockets) socket.terminate();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}
