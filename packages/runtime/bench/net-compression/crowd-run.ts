/**
 * Scene 3: 10,000 walkers (walkers.ts) in a 2 km square, simulated at 60 Hz and sent at 20 Hz to 1 and then to
 * 100 clients, each on a link of its own (one-way 100 ms ± 10 ms, 2% loss each way, its own seeds), with no
 * interest management: every client is sent every entity. The server's time is the encoder's (push: quantise
 * once; messageFor: one encode per baseline in use, shared by the clients on it), timed around those calls
 * alone; the clients' decoding is not the server's and is summed apart. The 1-client run is the baseline: what
 * 99 more clients add, divided by 99, is a client's cost.
 */
import { defineSchema } from 'steadyframe';
import { DeltaRoom, type LinkSpec, type RoomTotals } from './delta-room.ts';
import { stateBlock, v3SnapshotBytes } from './state-block.ts';
import { createWalkers, WALK_TICK_RATE } from './walkers.ts';

export const CROWD = 10_000;
export const CROWD_HALF = 1000;
export const CROWD_SEND_EVERY = 3;
export const CROWD_LINK: LinkSpec = { baseMs: 100, jitterMs: 10, loss: 0.02 };

export const crowdSchema = defineSchema({
  position: { width: 2, kind: 'linear', quantize: { min: -CROWD_HALF, max: CROWD_HALF, precision: 1 / 100 } },
  angle: { width: 1, kind: 'angle', quantize: { bits: 12 } },
});

export interface CrowdRun {
  readonly clients: number;
  readonly warmUpSeconds: number;
  /** Seconds measured (after the warm-up), and the totals over them. */
  readonly seconds: number;
  readonly totals: RoomTotals;
  /** A full snapshot (quantised, no baseline), encoded once a push for every client alike: its bytes and ms a push. */
  readonly fullBytes: number;
  readonly fullMs: number;
  readonly v3Bytes: number;
}

/** The crowd's walkers (the same seed for every run) and the state block they are written into before each push. */
export function crowdWorld() {
  const walkers = createWalkers(CROWD, CROWD_HALF, 3_000);
  const state = stateBlock(crowdSchema, CROWD);
  const p = state.base('position');
  const a = state.base('angle');
  return {
    walkers,
    state,
    /** The walkers' positions and headings into the state block. */
    write(): void {
      const block = state.block;
      for (let i = 0; i < CROWD; i++) {
        block[p + 2 * i] = walkers.x[i]!;
        block[p + 2 * i + 1] = walkers.y[i]!;
        block[a + i] = walkers.heading[i]!;
      }
    },
  };
}

export function runCrowd(clients: number, seconds: number, warmUpSeconds: number): CrowdRun {
  const { walkers, state, write } = crowdWorld();
  const room = new DeltaRoom(state.format, clients, CROWD_LINK, 40_300);
  let fullBytes = 0;
  let fullMs = 0;
  for (let tick = 1; tick <= (warmUpSeconds + seconds) * WALK_TICK_RATE; tick++) {
    walkers.step();
    if (tick % CROWD_SEND_EVERY !== 0) continue;
    if (tick === warmUpSeconds * WALK_TICK_RATE) {
      room.queue.runUntil((tick * 1000) / WALK_TICK_RATE);
      room.resetTotals();
      fullMs = 0;
    }
    write();
    room.publish(tick, (tick * 1000) / WALK_TICK_RATE, CROWD, state.block, state.generation);
    // sending everything instead: one full snapshot a push (what the publisher encodes for a client with no baseline)
    const start = performance.now();
    fullBytes = room.encoder.messageFor(-1).byteLength;
    fullMs += performance.now() - start;
  }
  return { clients, warmUpSeconds, seconds, totals: room.totals, fullBytes, fullMs, v3Bytes: v3SnapshotBytes(state.format, CROWD) };
}
