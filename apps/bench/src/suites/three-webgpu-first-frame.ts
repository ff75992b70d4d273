/**
 * The three-webgpu suite's first-frame probe: where a frame's time goes, each step awaited until the GPU reports
 * it done (a WebGL fence, WebGPU's `onSubmittedWorkDone`), each bounded by a cap so that a GPU that never
 * finishes is reported, not waited on for ever.
 *
 * ```text
 *  compile ─▶ upload (the channels' bytes, both states, into a scratch buffer) ─▶ first frame (update: both
 *  states copied or uploaded; render: uploaded, drawn) ─▶ draw × DRAWS (render alone: no new state)
 * ```
 */
import { log } from '../page.ts';
import type { RendererStage } from './three-webgpu-stages.ts';

export interface FirstFrame {
  /** ms: `renderer.compileAsync(scene, camera)`, before any frame. */
  readonly compileMs: number;
  /** ms: the channels' bytes for both states (position, rotation, generation: 64 B an entity) to a scratch buffer. */
  readonly uploadMs: number;
  /** ms: the first frame: `mesh.update` (both states) and a render. */
  readonly firstMs: number;
  /** ms: a render with no new state, the median of DRAWS. */
  readonly drawMs: number;
  /** The step that did not finish within the cap, or null. */
  readonly stalled: keyof Omit<FirstFrame, 'stalled'> | null;
}

const DRAWS = 3;
/** Bytes the mesh's channels hold for one entity in both states: 3 + 4 floats and a uint32 generation, twice. */
export const CHANNEL_BYTES = 2 * (3 + 4 + 1) * 4;

/** `promise`, or 'stalled' after `capMs`. */
async function within<T>(promise: Promise<T>, capMs: number): Promise<T | 'stalled'> {
  let timer = 0;
  const cap = new Promise<'stalled'>((resolve) => (timer = window.setTimeout(() => resolve('stalled'), capMs)));
  try {
    return await Promise.race([promise, cap]);
  } finally {
    clearTimeout(timer);
  }
}

/** Times the steps on `stage` (over `count` entities); logs each as `label`. */
export async function probeFirstFrame(stage: RendererStage, count: number, label: string, capMs = 90_000): Promise<FirstFrame> {
  const times = { compileMs: Number.NaN, uploadMs: Number.NaN, firstMs: Number.NaN, drawMs: Number.NaN };
  const step = async (name: keyof typeof times, work: () => Promise<void>): Promise<number | null> => {
    const t = performance.now();
    const finished = await within(work().then(() => stage.done()), capMs);
    const ms = performance.now() - t;
    if (finished === 'stalled') {
      log(`three-webgpu ${label} first frame: ${name} not done after ${(ms / 1000).toFixed(0)} s`);
      return null;
    }
    return ms;
  };
  const result = (stalled: FirstFrame['stalled']): FirstFrame => {
    const shown = Object.entries(times).map(([k, v]) => `${k.replace('Ms', '')} ${v.toFixed(1)} ms`).join(', ');
    log(`three-webgpu ${label} first frame: ${shown}${stalled === null ? '' : `; ${stalled} stalled`}`);
    return { ...times, stalled };
  };
  for (const [name, work] of [
    ['compileMs', () => stage.compile()],
    ['uploadMs', () => stage.upload(count * CHANNEL_BYTES)],
    ['firstMs', async () => void (stage.mesh.update(), stage.render(), stage.track())],
  ] as const) {
    const ms = await step(name, work);
    if (ms === null) return result(name);
    times[name] = ms;
  }
  const draws: number[] = [];
  for (let i = 0; i < DRAWS; i++) {
    const ms = await step('drawMs', async () => void (stage.render(), stage.track()));
    if (ms === null) return result('drawMs');
    draws.push(ms);
  }
  times.drawMs = draws.sort((a, b) => a - b)[Math.floor(DRAWS / 2)]!;
  return result(null);
}
