/**
 * The publish suite's worker: times, in a worker as the simulation would, what publishing one tick of schema3d
 * costs, by each way of doing it, next to the floor (one memcpy of the live state) and to the transferable
 * ping-pong design's delivery of a tick. No reader contends for the lock: this is the worker's own cost.
 *
 * | method             | what one call does                                                                    |
 * |--------------------|---------------------------------------------------------------------------------------|
 * | `ours`             | `SlotWriter.publish` as the runtime's worker runs it: live entities only, memory.copy  |
 * |                    | within the shared WebAssembly.Memory (the world in its region), the flip under the lock|
 * | `whole-blocks`     | the publish before issue #16: both whole blocks copied with set, a private world        |
 * | `subarray-set`     | live entities only, a subarray view and a set per run (fields, generations), private   |
 * |                    | world: 12 views a tick                                                                 |
 * | `wasm-memory-copy` | live entities only, WebAssembly `memory.copy` within the shared memory (world in it)   |
 * | `copy-within`      | the same spans by Float32Array copyWithin over the whole buffer (ours without a Memory) |
 * | `floor`            | one TypedArray.set of the live state's bytes, plain memory to plain memory             |
 * | `floor-shared`     | the same bytes, shared memory to shared memory                                         |
 * | `transfer`         | the ping-pong design (message.worker.ts): position and rotation into a pooled buffer,   |
 * |                    | posted with the buffer transferred (the page sends it back)                            |
 */
import { blockOffset, createSharedViews, initStateBuffer, computeLayout, type SharedViews } from '../../../packages/runtime/src/core/layout.ts';
import { blockRuns, MERGE_GAP_FLOATS, PublishCopier } from '../../../packages/runtime/src/core/publish-copy.ts';
import { SlotWriter, type PublishMeta } from '../../../packages/runtime/src/core/slot-writer.ts';
import { uleb } from '../../../packages/runtime/src/core/wasm-encoding.ts';
import { schema3d } from './shared/sims.ts';
import type { PublishCase, PublishConfig, PublishMethod, PublishRow, PublishToPage, PublishToWorker } from './shared/publish.ts';
import { spread } from './shared/stats.ts';

type S = typeof schema3d;
const post = (message: PublishToPage, transfer: Transferable[] = []) => self.postMessage(message, transfer);
const log = (message: string) => post({ type: 'log', message });
const pool: ArrayBuffer[] = [];
/** Resolves once the page has sent back enough buffers. */
let poolWaiter: (() => void) | null = null;

/**
 * `copy(dst, src, bytes)`: WebAssembly `memory.copy` within `memory` (shared, `pages` pages). As WAT:
 * (func (export "c") (param i32 i32 i32) local.get 0 local.get 1 local.get 2 memory.copy)
 */
function memoryCopy(memory: WebAssembly.Memory, pages: number): (dst: number, src: number, bytes: number) => void {
  const imported = [1, 0x65, 1, 0x6d, 0x02, 0x03, ...uleb(pages), ...uleb(pages)]; // "e" "m", shared memory
  const body = [0, 0x20, 0, 0x20, 1, 0x20, 2, 0xfc, 0x0a, 0, 0, 0x0b];
  const bytes = new Uint8Array([
    ...[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...[1, 7, 1, 0x60, 3, 0x7f, 0x7f, 0x7f, 0], // type: (i32 i32 i32) -> ()
    ...[2, imported.length + 1, 1, ...imported], // import the memory
    ...[3, 2, 1, 0], // one function
    ...[7, 5, 1, 1, 0x63, 0, 0], // export "c"
    ...[10, body.length + 2, 1, body.length, ...body],
  ]);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { m: memory } });
  return instance.exports.c as (dst: number, src: number, bytes: number) => void;
}

/** ms per call of `fn`, over `k` calls. */
function timeCalls(fn: () => void, k: number): number {
  const start = performance.now();
  for (let i = 0; i < k; i++) fn();
  return (performance.now() - start) / k;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function waitForPool(n: number): Promise<void> {
  while (pool.length < n) await new Promise<void>((resolve) => (poolWaiter = resolve));
}

/** A flip as SlotWriter makes it, on words of its own: the emulated methods pay it too. */
function flipper() {
  const i32 = new Int32Array(new SharedArrayBuffer(64));
  return (next: number) => {
    while (Atomics.compareExchange(i32, 0, 0, 2) !== 0);
    Atomics.store(i32, 1, next);
    Atomics.add(i32, 2, 1);
    Atomics.store(i32, 0, 0);
  };
}

function fillWorld(views: SharedViews<S>, world: Float32Array, plain: Float32Array, live: number): void {
  const { layout } = views;
  for (const f of layout.fields) {
    const at = f.offset / 4;
    for (let i = 0; i < live * f.width; i++) world[at + i] = plain[at + i] = (i % 1000) * 0.25 - 100;
  }
  const generations = new Uint32Array(world.buffer, world.byteOffset + layout.generationOffset, live);
  const plainGenerations = new Uint32Array(plain.buffer, layout.generationOffset, live);
  for (let i = 0; i < live; i++) generations[i] = plainGenerations[i] = i & 7;
}

async function measure(c: PublishCase, samples: number): Promise<PublishRow> {
  const { capacity, live } = c;
  const layout = computeLayout(schema3d, capacity);
  const pages = Math.ceil(layout.totalBytes / 65_536);
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  const buffer = initStateBuffer(memory.buffer as unknown as SharedArrayBuffer, layout, 0);
  const views = createSharedViews<S>(buffer, schema3d, capacity);
  const floats = layout.blockBytes / 4;
  const world = new Float32Array(buffer, layout.worldOffset, floats);
  const plainWorld = new Float32Array(floats);
  fillWorld(views, world, plainWorld, live);

  const meta: PublishMeta = { previousTick: 0, currentTick: 0, previousTime: 0, currentTime: 0, count: live, previousCount: live, simTime: 0, scale: 1, snaps: 0 };
  // as the runtime's worker makes it: given the WebAssembly.Memory, it publishes with memory.copy
  const writer = new SlotWriter(views, world, () => 0, undefined, undefined, memory);
  const oursCopy = new PublishCopier(views, world, memory).method;
  writer.publishInitial(meta);
  const flip = flipper();
  let front = 0;
  const runs = blockRuns(layout);
  const { blocks } = views;

  // the emulations write the same blocks as ours (nobody reads them here)
  const wholeBlocks = () => {
    const back = 1 - front;
    blocks[back]!.previous.set(blocks[front]!.current);
    blocks[back]!.current.set(plainWorld);
    flip(back);
    front = back;
  };
  const subarraySet = () => {
    const back = 1 - front;
    const from = blocks[front]!.current;
    const to = blocks[back]!;
    for (let r = 0; r < runs.offsets.length; r++) {
      const start = runs.offsets[r]!;
      const end = start + live * runs.widths[r]!;
      to.previous.subarray(start, end).set(from.subarray(start, end));
      to.current.subarray(start, end).set(plainWorld.subarray(start, end));
    }
    flip(back);
    front = back;
  };
  const copy = memoryCopy(memory, pages);
  /** Byte offsets and lengths of the spans copyLive copies (runs merged across short gaps), for memory.copy. */
  const spans: Array<[number, number]> = [];
  {
    let start = runs.offsets[0]!;
    let end = start + live * runs.widths[0]!;
    for (let r = 1; r < runs.offsets.length; r++) {
      const runStart = runs.offsets[r]!;
      const runEnd = runStart + live * runs.widths[r]!;
      if (runStart - end <= MERGE_GAP_FLOATS) end = runEnd;
      else {
        spans.push([4 * start, 4 * (end - start)]);
        start = runStart;
        end = runEnd;
      }
    }
    spans.push([4 * start, 4 * (end - start)]);
  }
  const at = (slot: number, which: 'previous' | 'current') => blockOffset(layout, slot, which);
  const wasmCopy = () => {
    const back = 1 - front;
    const fromCurrent = at(front, 'current');
    const toPrevious = at(back, 'previous');
    const toCurrent = at(back, 'current');
    for (const [offset, bytes] of spans) {
      copy(toPrevious + offset, fromCurrent + offset, bytes);
      copy(toCurrent + offset, layout.worldOffset + offset, bytes);
    }
    flip(back);
    front = back;
  };
  const f32 = new Float32Array(buffer, 0, Math.floor(buffer.byteLength / 4));
  const copyWithin = () => {
    const back = 1 - front;
    const fromCurrent = at(front, 'current') / 4;
    const toPrevious = at(back, 'previous') / 4;
    const toCurrent = at(back, 'current') / 4;
    const w = layout.worldOffset / 4;
    for (const [offset, bytes] of spans) {
      f32.copyWithin(toPrevious + offset / 4, fromCurrent + offset / 4, fromCurrent + (offset + bytes) / 4);
      f32.copyWithin(toCurrent + offset / 4, w + offset / 4, w + (offset + bytes) / 4);
    }
    flip(back);
    front = back;
  };
  const liveFloats = 8 * live;
  const floorFrom = new Float32Array(liveFloats).fill(1.5);
  const floorTo = new Float32Array(liveFloats);
  const sharedFloor = new Float32Array(new SharedArrayBuffer(8 * liveFloats));
  const sharedFrom = sharedFloor.subarray(0, liveFloats).fill(1.5);
  const sharedTo = sharedFloor.subarray(liveFloats);
  // the transfer design's arrays are the live entities exactly, as message.worker.ts keeps them
  const position = plainWorld.slice(0, 3 * live);
  const rotation = plainWorld.slice(layout.fields[1]!.offset / 4, layout.fields[1]!.offset / 4 + 4 * live);
  const transfer = () => {
    const b = pool.pop()!;
    new Float32Array(b, 0, 3 * live).set(position);
    new Float32Array(b, 12 * live, 4 * live).set(rotation);
    post({ type: 'tick', buffer: b }, [b]);
  };

  const methods: Record<PublishMethod, () => void> = {
    ours: () => writer.publish(meta),
    'whole-blocks': wholeBlocks,
    'subarray-set': subarraySet,
    'wasm-memory-copy': wasmCopy,
    'copy-within': copyWithin,
    floor: () => floorTo.set(floorFrom),
    'floor-shared': () => sharedTo.set(sharedFrom),
    transfer,
  };
  // calls per sample: about 4 ms of ours; the transfer design's pool holds that many buffers (at most 64)
  methods.ours();
  const k = Math.max(1, Math.min(2000, Math.ceil(4 / Math.max(1e-4, timeCalls(methods.ours, 5)))));
  const kTransfer = Math.min(k, 64);
  pool.length = 0;
  for (let i = 0; i < kTransfer + 2; i++) pool.push(new ArrayBuffer(28 * live));
  const callsOf = (name: PublishMethod) => (name === 'transfer' ? kTransfer : k);
  // warm up every method (JIT tiers, page faults), about 150 ms each
  for (const [name, fn] of Object.entries(methods) as Array<[PublishMethod, () => void]>) {
    const until = performance.now() + 150;
    for (let n = 0; n < 3 || performance.now() < until; n++) {
      if (name === 'transfer') await waitForPool(1);
      fn();
    }
    await macrotask();
  }
  const times: Record<PublishMethod, number[]> = { ours: [], 'whole-blocks': [], 'subarray-set': [], 'wasm-memory-copy': [], 'copy-within': [], floor: [], 'floor-shared': [], transfer: [] };
  const entries = Object.entries(methods) as Array<[PublishMethod, () => void]>;
  for (let r = 0; r < samples; r++) {
    // each round starts with the next method: none always runs first (after the pause) or after the same one
    for (let m = 0; m < entries.length; m++) {
      const [name, fn] = entries[(m + r) % entries.length]!;
      if (name === 'transfer') await waitForPool(kTransfer);
      times[name].push(timeCalls(fn, callsOf(name)));
      await macrotask(); // GC and the returned buffers outside the timed calls
    }
  }
  const ms: PublishRow['ms'] = {};
  const ratioToFloor: PublishRow['ratioToFloor'] = {};
  const ratioToSharedFloor: PublishRow['ratioToSharedFloor'] = {};
  for (const name of Object.keys(times) as PublishMethod[]) {
    ms[name] = spread(times[name]);
    ratioToFloor[name] = spread(times[name].map((t, i) => t / times.floor[i]!));
    ratioToSharedFloor[name] = spread(times[name].map((t, i) => t / times['floor-shared'][i]!));
  }
  return {
    capacity,
    live,
    liveBytes: 32 * live,
    callsPerSample: k,
    oursCopy,
    ms,
    ratioToFloor,
    ratioToSharedFloor,
    ratioToTransfer: spread(times.ours.map((t, i) => t / times.transfer[i]!)),
  };
}

self.addEventListener('message', (event: MessageEvent<PublishToWorker>) => {
  const data = event.data;
  if ('type' in data) {
    pool.push(data.buffer);
    const waiter = poolWaiter;
    poolWaiter = null;
    waiter?.();
    return;
  }
  void (async () => {
    try {
      const rows: PublishRow[] = [];
      for (const c of data.cases) {
        const row = await measure(c, data.samples);
        log(
          `publish capacity ${c.capacity}, ${c.live} live: ours ${row.ms.ours!.median.toFixed(4)} ms = ${row.ratioToFloor.ours!.median.toFixed(2)}x floor ` +
            `(${row.ms.floor!.median.toFixed(4)} ms), whole blocks ${row.ms['whole-blocks']!.median.toFixed(4)}, subarray+set ${row.ms['subarray-set']!.median.toFixed(4)}, ` +
            `memory.copy ${row.ms['wasm-memory-copy']!.median.toFixed(4)}, copyWithin ${row.ms['copy-within']!.median.toFixed(4)}, floor-shared ${row.ms['floor-shared']!.median.toFixed(4)}, transfer ${row.ms.transfer!.median.toFixed(4)} ms`,
        );
        rows.push(row);
      }
      post({ type: 'done', rows });
    } catch (error) {
      post({ type: 'error', message: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) });
    }
  })();
});
