/**
 * Scene 3 under interest management (net/interest.ts): the same 10,000 walkers, 100 clients, each one's avatar a
 * walker (client c follows walker 97·c) and seeing the walkers within CROWD_RADIUS of it (radiusInterest, about
 * 200 at this density), each on its own link. The server's work per push: quantise the state once, copy the
 * positions the selection reads, then per client select, update its view and encode it (a view is its own: nothing
 * is shared between clients but the quantisation). Every decoded view is checked code for code against what the
 * server meant for that client at that tick.
 *
 * ```text
 *  push: DeltaEncoder.push (quantise once) ── per client: radiusInterest.select ── ClientView.update ── message
 *        ── down link ── DeltaDecoder (the client's, its capacity the limit) ── ack ── up link ── view.baseline.ack
 * ```
 */
import { DeltaDecoder, DeltaEncoder } from '../../src/net/delta-stream.ts';
import { ClientView, type InterestState } from '../../src/net/interest.ts';
import { radiusInterest } from '../../src/net/radius-interest.ts';
import { createLink, EventQueue } from '../../test/node/support/net-link.ts';
import { CROWD, CROWD_LINK, CROWD_SEND_EVERY, crowdWorld } from './crowd-run.ts';
import { WALK_TICK_RATE } from './walkers.ts';

/** Metres: π × 160² of a 2 km square's 10,000 walkers is about 200 of them. */
export const CROWD_RADIUS = 160;
/** Most walkers a client sees (its capacity). */
export const CROWD_LIMIT = 512;

export interface CrowdInterestRun {
  readonly clients: number;
  readonly seconds: number;
  readonly pushes: number;
  /** Bytes sent to all clients, the heads' share, and the visible entities summed over every client's pushes. */
  readonly bytes: number;
  readonly messages: number;
  readonly visible: number;
  readonly entered: number;
  readonly left: number;
  readonly deltas: number;
  readonly full: number;
  readonly lost: number;
  readonly late: number;
  readonly wrong: number;
  /** The server's ms over the measured pushes: the push (quantise, copy) and every client's select, update and encode. */
  readonly serverMs: number;
  readonly decodeMs: number;
  readonly dropped: number;
}

export function runCrowdInterest(clients: number, seconds: number, warmUpSeconds: number): CrowdInterestRun {
  const { walkers, state, write } = crowdWorld();
  const format = state.format;
  const p = state.base('position');
  const encoder = new DeltaEncoder(format);
  const interest = radiusInterest({ radius: CROWD_RADIUS, focus: (client) => client.player * 97, limit: CROWD_LIMIT });
  const queue = new EventQueue();
  const positions = new Float32Array(2 * CROWD);
  let tickNow = 0;
  const view: InterestState = { get tick() { return tickNow; }, count: CROWD, field: () => positions };
  const selected = new Uint32Array(CROWD_LIMIT);
  const list = Array.from({ length: clients }, (_, c) => ({
    player: c,
    view: new ClientView(format, CROWD_LIMIT),
    decoder: new DeltaDecoder(format),
    down: createLink(50_000 + 2 * c, CROWD_LINK),
    up: createLink(50_000 + 2 * c + 1, CROWD_LINK),
  }));
  const totals = { pushes: 0, bytes: 0, messages: 0, visible: 0, entered: 0, left: 0, deltas: 0, full: 0, lost: 0, late: 0, wrong: 0, serverMs: 0, decodeMs: 0 };
  let counting = false;
  let enteredBefore = 0;
  let leftBefore = 0;
  for (let tick = 1; tick <= (warmUpSeconds + seconds) * WALK_TICK_RATE; tick++) {
    walkers.step();
    if (tick % CROWD_SEND_EVERY !== 0) continue;
    const now = (tick * 1000) / WALK_TICK_RATE;
    queue.runUntil(now);
    if (!counting && tick >= warmUpSeconds * WALK_TICK_RATE) {
      counting = true;
      enteredBefore = list.reduce((s, c) => s + c.view.stats.entered, 0);
      leftBefore = list.reduce((s, c) => s + c.view.stats.left, 0);
    }
    write();
    const block = state.block;
    const start = performance.now();
    const head = { tick, time: now, count: CROWD, snaps: 0 };
    encoder.push(head, block, state.generation);
    // what the publisher's interest copies under the lock: the live positions
    positions.set(block.subarray(p, p + 2 * CROWD));
    tickNow = tick;
    const sends = list.map((client) => {
      const n = interest.select(client, view, selected);
      client.view.update(head, encoder.state!, selected, n);
      const delta = client.view.encoder.isDelta(client.view.baseline.acked);
      return { bytes: client.view.message(), delta };
    });
    const spent = performance.now() - start;
    if (!counting) continue;
    totals.serverMs += spent;
    totals.pushes++;
    list.forEach((client, c) => {
      const { bytes, delta } = sends[c]!;
      totals.messages++;
      totals.bytes += bytes.byteLength;
      totals.visible += client.view.stats.visible;
      if (delta) totals.deltas++;
      else totals.full++;
      const down = client.down();
      if (down === null) {
        totals.lost++;
        return;
      }
      queue.schedule(now + down, () => {
        const t0 = performance.now();
        const result = client.decoder.decode(bytes);
        totals.decodeMs += performance.now() - t0;
        if (result === null) {
          totals.late++;
          return;
        }
        const meant = client.view.encoder.window.find(result.head.tick);
        if (meant === null || !sameCodes(result.state.codes, meant.codes, meant.count * format.codesPerEntity) || result.state.count !== meant.count) totals.wrong++;
        if (!result.kept) return;
        const up = client.up();
        if (up !== null) queue.schedule(queue.now + up, () => client.view.baseline.ack(client.view.encoder, result.head.tick));
      });
    });
  }
  totals.entered = list.reduce((s, c) => s + c.view.stats.entered, 0) - enteredBefore;
  totals.left = list.reduce((s, c) => s + c.view.stats.left, 0) - leftBefore;
  return { clients, seconds, ...totals, dropped: interest.stats.dropped };
}

function sameCodes(a: Uint32Array, b: Uint32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
