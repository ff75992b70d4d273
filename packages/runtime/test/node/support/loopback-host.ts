/**
 * A snapshot publisher on a real socket server, for the multiplayer tests over real sockets: a `ws` server on
 * 127.0.0.1 (any free port) hosting it with `hostSnapshots`, and a loop publishing every 4 ms (faster than any
 * test's send rate).
 */
import { WebSocketServer } from 'ws';
import { hostSnapshots, type PublisherClient, type SnapshotPublisher } from 'steadyframe/node';

export interface LoopbackHost {
  /** Where clients connect: ws://127.0.0.1:port. */
  readonly url: string;
  /** The publisher's clients, as they connected. */
  readonly clients: PublisherClient[];
  /** Stops publishing, the host and the server. */
  close(): void;
}

/** Hosts `publisher` on 127.0.0.1; `maxPayload` is the largest client message the server takes (default the publisher's). */
export async function hostOnLoopback(publisher: SnapshotPublisher, maxPayload = publisher.maxMessageBytes): Promise<LoopbackHost> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload });
  const clients: PublisherClient[] = [];
  const host = hostSnapshots(publisher, wss, { onClient: (c) => clients.push(c) });
  const publishing = setInterval(() => publisher.publish(), 4);
  await new Promise<void>((resolve) => wss.on('listening', () => resolve()));
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
    clients,
    close() {
      clearInterval(publishing);
      host.close();
      wss.close();
    },
  };
}
