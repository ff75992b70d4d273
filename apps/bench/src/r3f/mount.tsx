/**
 * Mounts one design of the r3f-port suite into a container of its own (a React root with r3f's `<Canvas>`),
 * counts what r3f's loop does through its global effects, and unmounts it cleanly.
 *
 * ```text
 *  one animation frame of r3f's loop:
 *   addEffect        (before)  rafs++, the loop's start time
 *   useFrame ...               the design's own work (a Rapier step; posting cannon's step; pace + update)
 *   gl.render                  by r3f, or by the steadyframe provider on the frames its pacer keeps
 *   addAfterEffect   (after)   rendered this frame? (gl.info.render.frame moved); the first with probe.ready
 *                              ends the first-frame timing; the loop's time
 *  between frames: cannon's worker replies, handled on the main thread (not inside the loop)
 * ```
 */
import { addAfterEffect, addEffect, type RootState } from '@react-three/fiber';
import type { ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { sleep } from '../page.ts';
import { CANVAS_HEIGHT, CANVAS_WIDTH, Stage, type HeapProbe } from './stage.tsx';

export type HeapDesign = 'rapier' | 'cannon' | 'ours' | 'floor';

type DesignComponent = ComponentType<{ probe: HeapProbe }>;

/** Each design's module, loaded when first mounted (its own chunk: @react-three/rapier, use-cannon, ours). */
const DESIGNS: Record<HeapDesign, () => Promise<DesignComponent>> = {
  rapier: async () => (await import('./rapier-heap.tsx')).RapierHeap,
  cannon: async () => (await import('./cannon-heap.tsx')).CannonHeap,
  ours: async () => (await import('./ours-heap.tsx')).OursHeap,
  floor: async () => (await import('./floor-heap.tsx')).FloorHeap,
};

/** What r3f's loop did since the design was mounted. */
export interface LoopCounters {
  /** Animation frames r3f's loop ran. */
  readonly rafs: number;
  /** Frames rendered (`gl.info.render.frame`). */
  readonly renders: number;
  /** Wall ms inside r3f's loop (from its first global effect to its last after-effect). */
  readonly loopMs: number;
  /** The probe's physics updates. */
  readonly updates: number;
}

export interface MountedHeap {
  readonly probe: HeapProbe;
  /** ms from the root's render call to the end of the first frame rendered with every box (HeapProbe.ready). */
  readonly firstFrame: Promise<number>;
  counters(): LoopCounters;
  /** A PNG data URL of the canvas, read right after the next frame rendered (before the browser presents it). */
  picture(): Promise<string>;
  /** Unmounts the root and waits for r3f to release the renderer (its context lost); says whether it did. */
  unmount(): Promise<{ contextLost: boolean }>;
}

export async function mountHeap(design: HeapDesign, count: number): Promise<MountedHeap> {
  const Design = await DESIGNS[design](); // loaded before the clock starts: the first frame times the mount
  const container = document.createElement('div');
  container.style.cssText = `width:${CANVAS_WIDTH}px;height:${CANVAS_HEIGHT}px;position:relative`;
  document.body.append(container);
  const probe: HeapProbe = { count, ready: false, updates: 0, mountedAt: Number.NaN, phases: {} };
  let state: RootState | null = null;
  let rafs = 0;
  let renders = 0;
  let loopMs = 0;
  let loopStart = 0;
  let resolveFirst: (ms: number) => void = () => {};
  const firstFrame = new Promise<number>((resolve) => (resolveFirst = resolve));
  let first = false;
  let onRendered: (() => void) | null = null;
  const stopBefore = addEffect(() => {
    rafs++;
    loopStart = performance.now();
  });
  const stopAfter = addAfterEffect(() => {
    const now = performance.now();
    loopMs += now - loopStart;
    const rendered = state?.gl.info.render.frame ?? 0;
    if (rendered !== renders && probe.ready && !first) {
      first = true;
      resolveFirst(now - mounted);
    }
    if (rendered !== renders && onRendered !== null) onRendered();
    renders = rendered;
  });
  const root = createRoot(container);
  const mounted = performance.now();
  probe.mountedAt = mounted;
  root.render(
    <Stage onCreated={(s) => void (state = s)}>
      <Design probe={probe} />
    </Stage>,
  );
  return {
    probe,
    firstFrame,
    counters: () => ({ rafs, renders, loopMs, updates: probe.updates }),
    picture: () =>
      new Promise<string>((resolve) => {
        // the drawing buffer still holds the frame in the task that rendered it (no preserveDrawingBuffer needed)
        onRendered = () => {
          onRendered = null;
          resolve(state!.gl.domElement.toDataURL('image/png'));
        };
      }),
    async unmount() {
      const gl = state?.gl;
      root.unmount();
      stopBefore();
      stopAfter();
      // r3f tears the root down after React's cleanups: the scene's objects disposed, then the renderer it owns
      // disposed and its context lost (browsers cap live WebGL contexts)
      let lost = false;
      for (let waited = 0; waited < 3000 && !lost; waited += 50) {
        await sleep(50);
        lost = gl?.getContext().isContextLost() ?? false;
      }
      container.remove();
      return { contextLost: lost };
    },
  };
}
