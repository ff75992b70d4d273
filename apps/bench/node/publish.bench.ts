/**
 * The publish in Node (V8 without a browser): `pnpm exec vitest bench --run --project node apps/bench/node/publish.bench.ts`.
 * The same ways of publishing a tick of schema3d as the browser suite (apps/bench/src/publish.worker.ts), on the
 * main thread of Node, next to one memcpy of the live state, and what a recording adds to a tick (the state hash).
 * Prints tinybench's table; asserts nothing.
 */
import { bench, describe } from 'vitest';
import { computeLayout, createSharedViews, initStateBuffer } from '../../../packages/runtime/src/core/layout.ts';
import { SlotWriter, type PublishMeta } from '../../../packages/runtime/src/core/slot-writer.ts';
import { schema3d } from '../../../packages/runtime/src/core/schema.ts';
import { hashState } from '../../../packages/runtime/src/core/recording.ts';

for (const [capacity, live] of [
  [1_000, 1_000],
  [100_000, 100_000],
  [1_000_000, 1_000_000],
  [100_000, 1_000],
] as const) {
  describe(`capacity ${capacity}, ${live} live`, () => {
    const layout = computeLayout(schema3d, capacity);
    const pages = Math.ceil(layout.totalBytes / 65_536);
    const meta: PublishMeta = { previousTick: 0, currentTick: 0, previousTime: 0, currentTime: 0, count: live, previousCount: live, simTime: 0, scale: 1, snaps: 0 };
    const writerOn = (memory: boolean) => {
      const m = memory ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }) : null;
      const buffer = m === null ? new SharedArrayBuffer(layout.totalBytes) : m.buffer;
      const views = createSharedViews(initStateBuffer(buffer, layout, 0), schema3d, capacity);
      const world = new Float32Array(buffer, layout.worldOffset, layout.blockBytes / 4).fill(1.5);
      const writer = new SlotWriter(views, world, () => 0, 50, 'none', m);
      writer.publishInitial(meta);
      return { writer, views };
    };
    const byMemoryCopy = writerOn(true).writer;
    const byCopyWithin = writerOn(false).writer;
    const { views } = writerOn(false);
    const plainWorld = new Float32Array(layout.blockBytes / 4).fill(1.5);
    let front = 0;
    const floorFrom = new Float32Array(8 * live).fill(1.5);
    const floorTo = new Float32Array(8 * live);
    const shared = new Float32Array(new SharedArrayBuffer(64 * live));
    const options = { time: live >= 1_000_000 ? 1500 : 300 };
    bench('ours, memory.copy', () => byMemoryCopy.publish(meta), options);
    bench('ours, copyWithin', () => byCopyWithin.publish(meta), options);
    bench(
      'whole blocks (before)',
      () => {
        const back = 1 - front;
        views.blocks[back]!.previous.set(views.blocks[front]!.current);
        views.blocks[back]!.current.set(plainWorld);
        front = back;
      },
      options,
    );
    bench('floor: one memcpy of the live state, plain', () => floorTo.set(floorFrom), options);
    bench('one memcpy of the live state, shared', () => shared.copyWithin(8 * live, 0, 8 * live), options);
    // what a recording adds to each tick (worker/recorder.ts): the 64-bit hash of the live state
    const world = new Float32Array(views.buffer, layout.worldOffset, layout.blockBytes / 4).fill(1.5);
    const hash = new Uint32Array(2);
    bench('recording: the state hash', () => hashState(layout, world, live, hash), options);
  });
}
