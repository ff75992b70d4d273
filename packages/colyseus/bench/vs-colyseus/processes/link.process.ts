/**
 * The link process (child.ts): one shaped link between the clients and a server, `open`ed with its target and
 * shape: the stream link (../stream-link.ts: a WebSocket over a lossy path), or the repository's datagram relay.
 */
import { createShapedRelay } from 'steadyframe/testing/node';
import { createStreamLink, type StreamLinkStats, type StreamShape } from '../stream-link.ts';
import { serve } from './ipc.ts';

let link: { url: string; stats(): StreamLinkStats; close(): Promise<void> } | null = null;

serve({
  async open(args) {
    const { target, shape, datagram } = args as { target: string; shape: StreamShape; datagram: boolean };
    if (datagram) {
      const relay = await createShapedRelay(target.replace(/^http/, 'ws'), { baseMs: [shape.oneWayMs, shape.oneWayMs], jitterMs: shape.jitterMs, loss: shape.loss, seed: shape.seed });
      // in the stream link's terms: a lost message is counted where a retransmitted one is; none is held
      link = { url: relay.url.replace(/^ws/, 'http'), stats: () => ({ messages: relay.stats.forwarded + relay.stats.lost, retransmitted: relay.stats.lost, held: 0 }), close: () => relay.close() };
    } else {
      const stream = await createStreamLink(target, shape);
      link = { url: stream.url, stats: () => ({ ...stream.stats }), close: () => stream.close() };
    }
    return link.url;
  },
  stats: () => link!.stats(),
  close: () => link?.close(),
});
