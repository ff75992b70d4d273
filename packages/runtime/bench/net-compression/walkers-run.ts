/**
 * Scene 2: 1,000 walkers (walkers.ts) in a 200 m square, simulated at 60 Hz and sent at 20 Hz (every third
 * tick, as a publisher with `every: 3` does) to one client over one-way 100 ms ± 10 ms with 2% loss each way.
 * Three wires carry the same motion, side by side in one run:
 * - ours, position at 1/100 m and angle in 12 bits (the issue's scene);
 * - ours with a velocity too, at 1/100 m/s (the multiplayer example's fields: position, velocity, heading; the
 *   5 floats that made version 3's 24 bytes an entity);
 * - @colyseus/schema 5 (colyseus-mirror.ts), on a reliable socket: its patches.
 */
import { defineSchema } from 'steadyframe';
import { createColyseusMirror } from './colyseus-mirror.ts';
import { DeltaRoom, type LinkSpec, type RoomTotals } from './delta-room.ts';
import { stateBlock, v3SnapshotBytes, type StateBlock } from './state-block.ts';
import { createWalkers, WALK_TICK_RATE, type Walkers } from './walkers.ts';

export const WALKERS = 1000;
export const WALK_HALF = 100;
export const WALK_SEND_EVERY = 3;
export const WALK_PRECISION = 1 / 100;
export const WALK_LINK: LinkSpec = { baseMs: 100, jitterMs: 10, loss: 0.02 };

const position = { width: 2, kind: 'linear', quantize: { min: -WALK_HALF, max: WALK_HALF, precision: WALK_PRECISION } } as const;
export const walkerSchema = defineSchema({
  position,
  angle: { width: 1, kind: 'angle', quantize: { bits: 12 } },
});
export const walkerVelocitySchema = defineSchema({
  position: { ...position, velocity: 'velocity' },
  velocity: { width: 2, kind: 'linear', quantize: { min: -8, max: 8, precision: WALK_PRECISION } },
  heading: { width: 1, kind: 'angle', quantize: { bits: 12 } },
});

export interface WireRun {
  readonly totals: RoomTotals;
  readonly v3Bytes: number;
}

export interface WalkersRun {
  readonly snapshots: number;
  readonly ours: WireRun;
  readonly withVelocity: WireRun;
  readonly colyseus: { readonly bytes: number; readonly firstPatch: number; readonly patches: number; readonly encodeMs: number; readonly decodeMs: number; readonly worstError: number };
}

/** Writes the walkers into a block of either schema. */
function writer(state: StateBlock, names: { position: string; angle: string; velocity?: string }) {
  const p = state.base(names.position);
  const a = state.base(names.angle);
  const v = names.velocity === undefined ? -1 : state.base(names.velocity);
  return (w: Walkers) => {
    const block = state.block;
    for (let i = 0; i < w.count; i++) {
      block[p + 2 * i] = w.x[i]!;
      block[p + 2 * i + 1] = w.y[i]!;
      block[a + i] = w.heading[i]!;
      if (v >= 0) {
        block[v + 2 * i] = w.vx[i]!;
        block[v + 2 * i + 1] = w.vy[i]!;
      }
    }
  };
}

export function runWalkers(seconds: number): WalkersRun {
  const walkers = createWalkers(WALKERS, WALK_HALF, 2_000);
  const plain = stateBlock(walkerSchema, WALKERS);
  const rich = stateBlock(walkerVelocitySchema, WALKERS);
  const writePlain = writer(plain, { position: 'position', angle: 'angle' });
  const writeRich = writer(rich, { position: 'position', angle: 'heading', velocity: 'velocity' });
  // the same link draws for both of ours
  const roomPlain = new DeltaRoom(plain.format, 1, WALK_LINK, 40_200);
  const roomRich = new DeltaRoom(rich.format, 1, WALK_LINK, 40_200);
  const colyseus = createColyseusMirror(WALK_HALF, WALKERS);
  let colyseusBytes = 0;
  let firstPatch = 0;
  let patches = 0;
  let encodeMs = 0;
  let decodeMs = 0;
  let worstError = 0;
  let snapshots = 0;
  for (let tick = 1; tick <= seconds * WALK_TICK_RATE; tick++) {
    walkers.step();
    if (tick % WALK_SEND_EVERY !== 0) continue;
    snapshots++;
    const now = (tick * 1000) / WALK_TICK_RATE;
    writePlain(walkers);
    roomPlain.publish(tick, now, WALKERS, plain.block, plain.generation);
    writeRich(walkers);
    roomRich.publish(tick, now, WALKERS, rich.block, rich.generation);
    colyseus.write(walkers);
    const patch = colyseus.patch();
    // the first patch carries every entity's creation: a client's first state, counted apart
    if (snapshots === 1) {
      firstPatch = patch.bytes;
      continue;
    }
    colyseusBytes += patch.bytes;
    patches++;
    encodeMs += patch.encodeMs;
    decodeMs += patch.decodeMs;
    worstError = Math.max(worstError, colyseus.worstError(walkers));
  }
  roomPlain.queue.runUntil(Number.POSITIVE_INFINITY);
  roomRich.queue.runUntil(Number.POSITIVE_INFINITY);
  return {
    snapshots,
    ours: { totals: roomPlain.totals, v3Bytes: v3SnapshotBytes(plain.format, WALKERS) },
    withVelocity: { totals: roomRich.totals, v3Bytes: v3SnapshotBytes(rich.format, WALKERS) },
    colyseus: { bytes: colyseusBytes, firstPatch, patches, encodeMs, decodeMs, worstError },
  };
}
