/**
 * Scene 1: Gaffer's cubes (cubes.ts) for a minute at 60 Hz, every tick sent to one client over one-way 100 ms
 * with 2% loss each way (delta-room.ts), position at 1/512 m and rotation as smallest three of 9 bits each.
 */
import { defineSchema } from 'steadyframe';
import { createCubeScene, CUBE_SECONDS, CUBE_TICK_RATE, CUBES, cubePhase, type CubePhase } from './cubes.ts';
import { DeltaRoom, type LinkSpec, type PushRecord, type RoomTotals } from './delta-room.ts';
import { stateBlock, v3SnapshotBytes } from './state-block.ts';

/** Gaffer's horizontal bound, [−256, 256) m; one range serves every component of a field, so up shares it. */
export const cubeSchema = defineSchema({
  position: { width: 3, kind: 'linear', quantize: { min: -256, max: 256, precision: 1 / 512 } },
  rotation: { width: 4, kind: 'quaternion', quantize: { bits: 9 } },
});

export const CUBE_LINK: LinkSpec = { baseMs: 100, jitterMs: 10, loss: 0.02 };

export interface CubeRun {
  readonly totals: RoomTotals;
  readonly record: readonly PushRecord[];
  readonly v3Bytes: number;
  /** The first full (quantised, no baseline) snapshot's bytes, with every cube at its start. */
  readonly fullBytes: number;
  /** ms of Rapier's steps, for the record. */
  readonly physicsMs: number;
  readonly sleepingAtEnd: number;
  readonly phaseOf: (tick: number) => CubePhase;
}

export async function runCubes(seconds = CUBE_SECONDS): Promise<CubeRun> {
  const scene = await createCubeScene();
  const state = stateBlock(cubeSchema, CUBES);
  const position = state.base('position');
  const rotation = state.base('rotation');
  const room = new DeltaRoom(state.format, 1, CUBE_LINK, 40_100, true);
  let physicsMs = 0;
  let fullBytes = 0;
  for (let tick = 1; tick <= seconds * CUBE_TICK_RATE; tick++) {
    const start = performance.now();
    scene.step(tick);
    physicsMs += performance.now() - start;
    scene.write(state.block, position, rotation);
    room.publish(tick, (tick * 1000) / CUBE_TICK_RATE, CUBES, state.block, state.generation);
    if (tick === 1) fullBytes = room.record[0]!.bytes;
  }
  // what is still on the way arrives (the totals count it)
  room.queue.runUntil(Number.POSITIVE_INFINITY);
  const sleepingAtEnd = scene.sleeping();
  scene.free();
  return { totals: room.totals, record: room.record, v3Bytes: v3SnapshotBytes(state.format, CUBES), fullBytes, physicsMs, sleepingAtEnd, phaseOf: cubePhase };
}
