/**
 * Suite 1, frame cost: main-thread ms for one frame's acquire + interpolate into the render buffer
 * (`runtime.sample(t)` at alpha 0.5, the real runtime, worker attached and held), next to the floor: acquire, a
 * plain copy (TypedArray.set, a memcpy) of the same bytes the frame reads (the previous and the current state's
 * live field runs) into two plain buffers, release. Also "copy out": the current state's bytes alone into the
 * render buffer (half the reads). Samples of ours and the floor alternate, so drift hits both. Every kernel is
 * warmed up for 150 ms first.
 *
 * One more row per size, `js-plain`: the runtime's own JS kernels (interpolateField) run directly on plain
 * (unshared) copies of the same two states: the kernels' cost without the runtime around them and without
 * shared memory.
 *
 * And for 3D, the WebAssembly SIMD kernels (packages/runtime/src/core/simd-kernel.ts), which the
 * runtime uses when the engine has SIMD: `wasm` blends copies of the same two states in place in an unshared
 * wasm memory, `wasm-shared` in a shared one (where the runtime's buffer lives), `wasm+copy-out` adds copying
 * the result out to a plain buffer (what the runtime does without multi-memory: its render buffer stays
 * unshared), `wasm-shared→render` reads the shared memory and writes a plain render memory of the kernels'
 * own (multi-memory; what the runtime does where the engine has it, as Chromium does). All with relaxed SIMD's
 * fused multiply-add where the engine has it (as the runtime), except `wasm-shared→render, no FMA`. Last, per
 * size, `ours, render delay 1`: the runtime's frame with a one-tick render delay, blended from its history.
 */
import { createRuntime, type Runtime, type Schema } from 'steadyframe';
import { interpolateField, type StatePair } from 'steadyframe/adapter';
// the runtime's own kernels, by path (the package does not export them), timed alone
import { createBlendKernels } from '../../../../packages/runtime/src/core/simd-kernel.ts';
import { schema2d, schema3d } from '../shared/sims.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, log, timeCalls } from '../page.ts';
import { simWorker } from '../workers.ts';

export interface FrameCostRow {
  readonly schema: '2d' | '3d';
  readonly count: number;
  /** Bytes the frame reads (previous + current live field runs). */
  readonly bytesRead: number;
  readonly ours: Spread;
  readonly floor: Spread;
  readonly copyOut: Spread;
  /** ours / floor, per pair of samples. */
  readonly ratio: Spread;
  /** Calls timed per sample. */
  readonly callsPerSample: number;
}

export interface FrameCostResult {
  readonly rows: FrameCostRow[];
  readonly extra: Record<string, unknown>;
}

/** Extra rows other modules add (the wasm kernel): called with each runtime, return named ms-per-call timers. */
export type ExtraKernels = (runtime: Runtime<Schema>, time: number) => Record<string, () => void> | null;

/** The JS kernels on plain copies of the front slot's two states, into a plain render buffer. */
function plainKernels(runtime: Runtime<Schema>, time: number): () => void {
  const frame = runtime.sample(Number.POSITIVE_INFINITY);
  const count = frame.count;
  const alpha = (time - frame.previousTime) / (frame.currentTime - frame.previousTime);
  const fields = runtime.reader.read((slot) => runtime.layout.fields.map((f) => {
    const n = count * f.width;
    return {
      kind: f.kind,
      width: f.width,
      previous: Float32Array.from((slot.previous as Record<string, Float32Array>)[f.name]!.subarray(0, n)),
      current: Float32Array.from((slot.current as Record<string, Float32Array>)[f.name]!.subarray(0, n)),
      out: new Float32Array(n),
    };
  }));
  if (fields === undefined) throw new Error('the lock stayed busy at set-up');
  return () => {
    for (const f of fields) interpolateField(f.kind, f.width, f.previous, f.current, f.out, count, alpha);
  };
}

/** The wasm SIMD kernels on copies of the front slot's two states placed in a wasm memory; 3D only. */
function wasmKernels(runtime: Runtime<Schema>, time: number): Record<string, () => void> {
  const frame = runtime.sample(Number.POSITIVE_INFINITY);
  const count = frame.count;
  const alpha = (time - frame.previousTime) / (frame.currentTime - frame.previousTime);
  let previous: Record<string, Float32Array> = {};
  let current: Record<string, Float32Array> = {};
  const make = (shared: boolean, copyOut: boolean, toRender = false, relaxedSimd = true): (() => void) => {
    const elements = 7 * count;
    const pages = Math.ceil((3 * elements * 4 + 1024) / 65536);
    const memory = new WebAssembly.Memory(shared ? { initial: pages, maximum: pages, shared: true } : { initial: pages });
    // three 64-byte-aligned blocks: previous, current, out; each position (3 * count) then rotation (4 * count)
    const block = Math.ceil((elements * 4) / 64) * 64;
    const kernels = createBlendKernels(toRender ? { memory, renderBytes: 3 * block, relaxedSimd } : { memory, relaxedSimd });
    if (kernels.backend !== 'wasm-simd') throw new Error('no WebAssembly SIMD here');
    if (toRender && kernels.renderMemory === null) throw new Error('no WebAssembly multi-memory here');
    // the output block in the render memory (same offsets) when writing there
    const field = (b: number, offset: number, n: number) =>
      new Float32Array((b === 2 && toRender ? kernels.renderMemory! : memory).buffer, b * block + offset, n);
    const rotationAt = Math.ceil((12 * count) / 64) * 64;
    const views = [0, 1, 2].map((b) => ({ position: field(b, 0, 3 * count), rotation: field(b, rotationAt, 4 * count) }));
    const [a, bb, out] = views as [(typeof views)[0], (typeof views)[0], (typeof views)[0]];
    a.position.set(previous.position!.subarray(0, 3 * count));
    a.rotation.set(previous.rotation!.subarray(0, 4 * count));
    bb.position.set(current.position!.subarray(0, 3 * count));
    bb.rotation.set(current.rotation!.subarray(0, 4 * count));
    const plain = { position: new Float32Array(3 * count), rotation: new Float32Array(4 * count) };
    return () => {
      kernels.lerp(a.position, bb.position, out.position, 3 * count, alpha);
      kernels.nlerp(a.rotation, bb.rotation, out.rotation, count, alpha);
      if (copyOut) {
        plain.position.set(out.position);
        plain.rotation.set(out.rotation);
      }
    };
  };
  const result = runtime.reader.read((slot) => {
  previous = slot.previous as Record<string, Float32Array>;
  current = slot.current as Record<string, Float32Array>;
  return {
    wasm: make(false, false),
    'wasm-shared': make(true, false),
    'wasm+copy-out': make(false, true),
    'wasm-shared→render': make(true, false, true),
    'wasm-shared→render, no FMA': make(true, false, true, false),
  };
  });
  if (result === undefined) throw new Error('the lock stayed busy at set-up');
  return result;
}

export async function frameCost(quick: boolean, extraKernels?: ExtraKernels): Promise<FrameCostResult> {
  const sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
  const samples = quick ? 7 : 15;
  const rows: FrameCostRow[] = [];
  const extra: Record<string, unknown> = {};
  for (const kind of ['2d', '3d'] as const) {
    for (const count of sizes) {
      const schema: Schema = kind === '2d' ? schema2d : schema3d;
      const runtime = await createRuntime<Schema>({
        worker: simWorker({ kind, count, tickRate: 60 }),
        schema,
        capacity: count,
        visibility: null,
      });
      try {
        // two ticks: the front slot holds tick 1 and tick 2, real motion between them
        await runtime.stepOnce();
        await runtime.stepOnce();
        const newest = runtime.sample(Number.POSITIVE_INFINITY);
        if (newest.tick !== 2 || newest.count !== count) throw new Error(`unexpected state: tick ${newest.tick}, count ${newest.count}`);
        const time = (newest.previousTime + newest.currentTime) / 2;
        const ours = () => {
          runtime.sample(time);
        };
        const fields = runtime.layout.fields;
        const elements = fields.reduce((n, f) => n + count * f.width, 0);
        const scratchPrevious = new Float32Array(elements);
        const scratchCurrent = new Float32Array(elements);
        const render = runtime.sample(time).fields as Record<string, Float32Array>;
        const floorRead = (slot: StatePair<Schema>) => {
          let at = 0;
          for (const f of fields) {
            const n = count * f.width;
            scratchPrevious.set((slot.previous as Record<string, Float32Array>)[f.name]!.subarray(0, n), at);
            scratchCurrent.set((slot.current as Record<string, Float32Array>)[f.name]!.subarray(0, n), at);
            at += n;
          }
        };
        const floor = () => void runtime.reader.read(floorRead);
        const copyOutRead = (slot: StatePair<Schema>) => {
          for (const f of fields) render[f.name]!.set((slot.current as Record<string, Float32Array>)[f.name]!.subarray(0, count * f.width));
        };
        const copyOut = () => void runtime.reader.read(copyOutRead);
        const kernels: Record<string, () => void> = {
          ours,
          floor,
          copyOut,
          'js-plain': plainKernels(runtime, time),
          ...(kind === '3d' ? wasmKernels(runtime, time) : {}),
          ...(extraKernels?.(runtime, time) ?? {}),
        };
        // warm up (JIT, page faults on the scratch buffers), then size the calls per sample to about 4 ms
        // (about 150 ms each, so V8's optimising tier has compiled the kernels: on a busy 2-core machine the
        // background compile can lag, and a frame loop runs them 60 times a second forever anyway)
        for (const fn of Object.values(kernels)) {
          const until = performance.now() + 150;
          for (let n = 0; n < 3 || performance.now() < until; n++) fn();
        }
        const calls = Math.max(1, Math.min(2000, Math.ceil(4 / Math.max(1e-4, timeCalls(ours, 5)))));
        const times: Record<string, number[]> = Object.fromEntries(Object.keys(kernels).map((k) => [k, []]));
        await collectGarbage();
        for (let r = 0; r < samples; r++) {
          for (const [name, fn] of Object.entries(kernels)) times[name]!.push(timeCalls(fn, calls));
          // let the page breathe between rounds (and GC run outside the timed calls)
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        const ratio = times.ours!.map((t, i) => t / times.floor![i]!);
        const row: FrameCostRow = {
          schema: kind,
          count,
          bytesRead: 2 * elements * 4,
          ours: spread(times.ours!),
          floor: spread(times.floor!),
          copyOut: spread(times.copyOut!),
          ratio: spread(ratio),
          callsPerSample: calls,
        };
        rows.push(row);
        for (const name of Object.keys(kernels)) {
          if (name === 'ours' || name === 'floor' || name === 'copyOut') continue;
          extra[`${kind}/${count}/${name}`] = { ms: spread(times[name]!), ratioToFloor: spread(times[name]!.map((t, i) => t / times.floor![i]!)) };
        }
        // the same frame with a one-tick render delay: blended from the runtime's history of states (its own
        // wasm memory where the engine has multi-memory), timed after the rest, against the same floor samples
        runtime.setInterpolation({ renderDelay: 1 });
        const delayed = () => {
          runtime.sample(time);
        };
        for (let n = 0, until = performance.now() + 150; n < 3 || performance.now() < until; n++) delayed();
        const delayedTimes: number[] = [];
        for (let r = 0; r < samples; r++) {
          delayedTimes.push(timeCalls(delayed, calls));
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        runtime.setInterpolation({ renderDelay: 0 });
        extra[`${kind}/${count}/ours, render delay 1`] = { ms: spread(delayedTimes), ratioToFloor: spread(delayedTimes.map((t, i) => t / times.floor![i]!)) };
        const wasm = kind === '3d' ? `, wasm ${spread(times.wasm!).median.toFixed(4)} ms` : '';
        log(`frame ${kind} ${count}: ours ${row.ours.median.toFixed(4)} ms, floor ${row.floor.median.toFixed(4)} ms, x${row.ratio.median.toFixed(2)}${wasm}`);
      } finally {
        runtime.dispose();
      }
      await collectGarbage();
    }
  }
  return { rows, extra };
}
