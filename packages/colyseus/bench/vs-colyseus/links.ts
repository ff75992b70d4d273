/**
 * A shaped link for one duel in a process of its own (processes/link.process.ts): the stream link
 * (stream-link.ts), or with `datagram` the repository's relay (steadyframe/testing/node `createShapedRelay`: lost
 * messages gone, late ones overtaken; a reference for ours, not a link Colyseus can cross).
 */
import { spawnChild } from './processes/child.ts';
import type { StreamLinkStats, StreamShape } from './stream-link.ts';

export interface Link {
  /** http://127.0.0.1:port (ws:// on it for a WebSocket). */
  readonly url: string;
  stats(): Promise<StreamLinkStats>;
  close(): Promise<void>;
}

export async function openLink(target: string, shape: StreamShape, datagram = false): Promise<Link> {
  const child = await spawnChild('link');
  const url = await child.ask<string>('open', { target, shape, datagram });
  return {
    url,
    stats: () => child.ask<StreamLinkStats>('stats'),
    async close() {
      await child.ask('close');
      await child.stop();
    },
  };
}
