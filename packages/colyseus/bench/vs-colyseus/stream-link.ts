/**
 * The link both stacks cross in the benchmark: a relay between a client's WebSocket and the server's that shapes
 * each message as a WebSocket over a lossy path delivers it. Both stacks run over WebSocket, which is TCP: a lost
 * packet is not a lost message but a late one (retransmitted), and every message behind it waits for it (one
 * ordered stream). The repository's relay (steadyframe/testing/node `createShapedRelay`) drops and reorders
 * messages, a datagram link neither stack has here; over it a Colyseus state patch lost is a decoder's refId gone.
 *
 * ```text
 *  message m sent at t, of s segments (1,448 bytes each)
 *    delay   d = oneWay + uniform(−jitter, +jitter)
 *    lost?   each segment with probability `loss`: the sender's SACK/RACK notices after 1.25 round trips, the copy
 *            takes a fresh d (lost again: twice as long a wait each time, as RTO backoff)
 *    arrives a = t + waits + d
 *    handed  max(a, when the message before it was handed): the stream delivers in order
 * ```
 *
 * HTTP (Colyseus's matchmaking) passes unshaped. Seeded: a run's draws repeat. Never in a game.
 */
import { request, createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { mulberry32 } from 'steadyframe/testing/node';

export interface StreamShape {
  readonly oneWayMs: number;
  readonly jitterMs: number;
  /** The share of TCP segments lost, each way. */
  readonly loss: number;
  readonly seed: number;
}

export interface StreamLinkStats {
  messages: number;
  /** Messages that waited for a retransmission of their own. */
  retransmitted: number;
  /** Messages handed later than they arrived: held behind an earlier one. */
  held: number;
}

export interface StreamLink {
  /** The relay's address (http://127.0.0.1:port): ws:// on it reaches the target's WebSockets, shaped. */
  readonly url: string;
  readonly stats: StreamLinkStats;
  close(): Promise<void>;
}

const SEGMENT_BYTES = 1448;

/** One direction of one connection: messages handed to `deliver` in order, each at its shaped time. */
function lane(shape: StreamShape, random: () => number, stats: StreamLinkStats, deliver: (bytes: Buffer) => void) {
  const queue: Array<{ at: number; bytes: Buffer }> = [];
  let lastAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const roundTrip = 2 * shape.oneWayMs;
  const delay = () => Math.max(0, shape.oneWayMs + (2 * random() - 1) * shape.jitterMs);
  const pump = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.at <= now) deliver(queue.shift()!.bytes);
    if (queue.length > 0) timer = setTimeout(pump, Math.max(0, queue[0]!.at - now));
  };
  return {
    send(bytes: Buffer) {
      stats.messages++;
      const now = performance.now();
      let wait = 0;
      let backoff = 1.25 * roundTrip;
      const segments = Math.max(1, Math.ceil(bytes.byteLength / SEGMENT_BYTES));
      let lost = false;
      // a segment of it lost: noticed and sent again; the copy may be lost too
      while (1 - (1 - shape.loss) ** segments > random()) {
        lost = true;
        wait += backoff;
        backoff *= 2;
      }
      if (lost) stats.retransmitted++;
      const arrives = now + wait + delay();
      const at = Math.max(arrives, lastAt);
      if (at > arrives) stats.held++;
      lastAt = at;
      queue.push({ at, bytes });
      if (timer === null) timer = setTimeout(pump, Math.max(0, at - now));
    },
    close() {
      if (timer !== null) clearTimeout(timer);
      queue.length = 0;
    },
  };
}

/** Starts a relay on 127.0.0.1 in front of the server at `target` (http://host:port). */
export function createStreamLink(target: string, shape: StreamShape): Promise<StreamLink> {
  const random = mulberry32(shape.seed);
  const stats: StreamLinkStats = { messages: 0, retransmitted: 0, held: 0 };
  const sockets = new Set<WebSocket>();
  const lanes = new Set<{ close(): void }>();
  const upstreamBase = target.replace(/^http/, 'ws');
  const server = createServer((req, res) => {
    const forward = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(req, socket, head, (client) => {
      const upstream = new WebSocket(upstreamBase + (req.url ?? '/'));
      sockets.add(client).add(upstream);
      const send = (to: WebSocket) => (bytes: Buffer) => {
        if (to.readyState === WebSocket.OPEN) to.send(bytes);
      };
      const up = lane(shape, random, stats, send(upstream));
      const down = lane(shape, random, stats, send(client));
      lanes.add(up).add(down);
      const pending: Buffer[] = [];
      client.on('message', (data: RawData) => {
        const bytes = Buffer.from(data as Buffer);
        if (upstream.readyState === WebSocket.OPEN) up.send(bytes);
        else pending.push(bytes);
      });
      upstream.on('open', () => {
        for (const bytes of pending.splice(0)) up.send(bytes);
      });
      upstream.on('message', (data: RawData) => down.send(Buffer.from(data as Buffer)));
      // a close crosses with its code (a leave is not a dropped link: the SDK reconnects after one)
      const end = (code?: number, reason?: Buffer) => {
        up.close();
        down.close();
        const sendable = code !== undefined && (code === 1000 || (code >= 3000 && code <= 4999));
        for (const s of [client, upstream]) {
          if (s.readyState === WebSocket.CONNECTING) s.terminate();
          else if (s.readyState === WebSocket.OPEN) s.close(sendable ? code : 1000, sendable ? reason : undefined);
        }
      };
      for (const s of [client, upstream]) {
        s.on('close', (code, reason) => end(code, reason));
        s.on('error', () => end());
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        stats,
        close() {
          for (const l of lanes) l.close();
          for (const s of sockets) s.terminate();
          wss.close();
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}
