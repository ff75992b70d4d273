/**
 * `<InterpolatedInstances>` from `@steadyframe/react-three-fiber/webgpu` in a real r3f `<Canvas>` whose `gl` is
 * three.js's WebGPURenderer on a WebGPU device, with a real simulation worker running. r3f's own render to the
 * canvas is off (a presented WebGPU canvas loses its device in this headless Chromium: docs/webgpu.md); a
 * `useFrame` after the bindings renders each kept frame into a render target and reads it back, and every
 * instance must sit where the runtime's own sample of that frame's time puts it.
 */
import { Canvas, useFrame } from '@react-three/fiber';
import { InterpolatedInstances as WebGlInstances, Steadyframe, UPDATE_PRIORITY, useSteadyframeContext, WEBGPU_RENDERER } from '@steadyframe/react-three-fiber';
import { InterpolatedInstances, NOT_WEBGPU_RENDERER } from '@steadyframe/react-three-fiber/webgpu';
import type { InterpolatedNodeMesh } from '@steadyframe/three/webgpu';
import { createRef, useMemo, type ReactNode, type RefObject } from 'react';
import { createRoot } from 'react-dom/client';
import { MeshBasicMaterial, OrthographicCamera, RenderTarget } from 'three';
import { MeshBasicNodeMaterial, WebGPURenderer } from 'three/webgpu';
import { afterAll, afterEach, beforeAll, expect, it, onTestFinished } from 'vitest';
import { waitFor } from '../../../runtime/test/browser/helpers.ts';
import { frameCentre, markerGeometry, markersIn, VIEW, type MotionFrame } from '../../../three/test/browser/helpers.ts';
import type { motionSchema } from '../../../three/test/browser/fixtures/schema.ts';
import { Boundary, runtimeMaker } from '../browser/helpers.tsx';

const WIDTH = (VIEW.right - VIEW.left) * VIEW.scale;
const HEIGHT = (VIEW.top - VIEW.bottom) * VIEW.scale;

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

/**
 * Disposing a WebGPURenderer here (r3f's unmount does) at times drops the page's WebGPU instance while three.js
 * still awaits a popErrorScope of a pipeline it was making, and now and then the GPU process goes with it: a probe
 * of 25 refusals saw 3 instances dropped and one GPU process lost, after which WebGL contexts could not be made
 * for about 100 ms (a CI run's r3f failed "Error creating WebGL context" then). three's rejection, "Instance
 * dropped in popErrorScope", can come after the test that caused it: kept, that one and only it, for the whole
 * file; any other still fails the run.
 */
const dropped: unknown[] = [];
const keepDropped = (event: PromiseRejectionEvent) => {
  const reason = event.reason as { name?: unknown; message?: unknown } | null;
  if (reason?.name !== 'OperationError' || !String(reason.message).includes('popErrorScope')) return;
  dropped.push(reason);
  event.preventDefault();
  event.stopImmediatePropagation();
};
beforeAll(() => window.addEventListener('unhandledrejection', keepDropped, { capture: true }));
afterAll(() => window.removeEventListener('unhandledrejection', keepDropped, { capture: true }));

/** Until the GPU process makes a WebGL 2 context again (after a WebGPU renderer's disposal lost it: above). */
async function untilGpuProcess(): Promise<void> {
  await waitFor('a GPU process that makes WebGL 2 contexts', () => {
    const gl = document.createElement('canvas').getContext('webgl2');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return gl !== null;
  }, 10_000);
}

/**
 * A subscriber of positive priority from the first frame: r3f never renders to the canvas itself (before the
 * provider's children mount, it would: presenting loses the WebGPU device here).
 */
function NoCanvasRender(): null {
  useFrame(() => {}, 1);
  return null;
}

/** The device of the WebGPURenderer mountCanvas made last. */
let lastDevice: GPUDevice | undefined;

/** A `<Canvas>` on the page whose renderer `gl` makes; `unmount` set for afterEach. */
function mountCanvas(children: ReactNode, gl: 'webgpu' | 'webgl', onError: (error: unknown) => void): void {
  const host = document.createElement('div');
  host.style.cssText = `width: ${WIDTH}px; height: ${HEIGHT}px`;
  document.body.append(host);
  const root = createRoot(host);
  const factory = async (props: { canvas: HTMLCanvasElement | OffscreenCanvas }) => {
    const renderer = new WebGPURenderer({ canvas: props.canvas as HTMLCanvasElement, antialias: false });
    await renderer.init();
    lastDevice = (renderer.backend as { device?: GPUDevice }).device;
    if ((renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend !== true) throw new Error('WebGPURenderer fell back to WebGL 2: no WebGPU adapter here');
    return renderer;
  };
  root.render(
    <Boundary onError={onError}>
      <Canvas dpr={1} frameloop="always" {...(gl === 'webgpu' ? { gl: factory as never } : {})}>
        <NoCanvasRender />
        {children}
      </Canvas>
    </Boundary>,
  );
  unmount = () => {
    root.unmount();
    host.remove();
  };
}

interface Capture {
  readonly pixels: Uint8Array;
  /** The mesh counted this frame overtaken (drawn at its pair's older state, where the sampler has history). */
  readonly overtaken: boolean;
  readonly frame: { readonly count: number; readonly alpha: number; readonly centres: Array<[number, number]> };
  readonly alpha: number;
}

/**
 * After the bindings, on each frame the pacer keeps (up to `max`), where the mesh and the runtime's sample read
 * the same pair: renders the scene into a target through a camera on VIEW and reads it back (bottom row first).
 */
function Capturer({ handle, captures, max }: { handle: RefObject<InterpolatedNodeMesh | null>; captures: Array<Promise<Capture>>; max: number }) {
  const { paced, frame, runtime } = useSteadyframeContext<typeof motionSchema>();
  const target = useMemo(() => new RenderTarget(WIDTH, HEIGHT), []);
  const camera = useMemo(() => {
    const c = new OrthographicCamera(VIEW.left, VIEW.right, VIEW.top, VIEW.bottom, 0.1, 100);
    c.position.z = 10;
    return c;
  }, []);
  let publishedBefore = -1;
  let overtakenBefore = 0;
  useFrame(() => void (publishedBefore = runtime.reader.publishCount()), UPDATE_PRIORITY - 1);
  // priority 1: r3f's own render (to the canvas) is off
  useFrame(({ gl, scene }) => {
    const mesh = handle.current;
    if (mesh === null || !paced() || captures.length >= max) return;
    const f: MotionFrame = frame();
    if (!f.fresh || runtime.reader.publishCount() !== publishedBefore) return; // the mesh and the sample read different pairs
    const renderer = gl as unknown as WebGPURenderer;
    const sampled = { count: f.count, alpha: f.alpha, centres: Array.from({ length: f.count }, (_, i) => frameCentre(f, i)) };
    const alpha = mesh.alpha;
    const overtaken = mesh.stats.overtaken > overtakenBefore;
    overtakenBefore = mesh.stats.overtaken;
    renderer.setRenderTarget(target);
    renderer.setClearColor(0x000000, 1);
    renderer.render(scene, camera);
    const read = renderer.readRenderTargetPixelsAsync(target, 0, 0, WIDTH, HEIGHT) as Promise<Uint8Array>;
    renderer.setRenderTarget(null);
    captures.push(
      read.then((top) => {
        const row = WIDTH * 4;
        const pixels = new Uint8Array(top.length);
        for (let y = 0; y < HEIGHT; y++) pixels.set(top.subarray((HEIGHT - 1 - y) * row, (HEIGHT - y) * row), y * row);
        return { pixels, frame: sampled, alpha, overtaken };
      }),
    );
  }, 1);
  return null;
}

function Markers({ handle }: { handle: RefObject<InterpolatedNodeMesh | null> }) {
  const geometry = useMemo(() => markerGeometry(), []);
  const material = useMemo(() => new MeshBasicNodeMaterial({ color: 0xffffff }), []);
  return <InterpolatedInstances<typeof motionSchema, MeshBasicNodeMaterial> ref={handle as never} geometry={geometry} material={material} fields={{ position: 'position', rotation: 'rotation', scale: 'scale' }} />;
}

it('draws every instance where runtime.sample puts it at each kept frame, under r3f with a WebGPURenderer', async () => {
  const made = runtimeMaker();
  // the motion repeats every 10 ticks: the runtime runs freely while WebGPU starts and frames are captured (seconds
  // under load), and unlooped its entities leave the window and grow into each other's rows (a CI run under load
  // caught a marker clipped at the window's edge)
  const create = async () => {
    const runtime = await made.create();
    await runtime.commands.loop(10);
    return runtime;
  };
  const handle = createRef<InterpolatedNodeMesh>();
  const captures: Array<Promise<Capture>> = [];
  const errors: unknown[] = [];
  mountCanvas(
    <Steadyframe create={create} render={false}>
      <Markers handle={handle} />
      <Capturer handle={handle} captures={captures} max={24} />
    </Steadyframe>,
    'webgpu',
    (error) => errors.push(error),
  );
  await waitFor('24 captured frames', () => captures.length >= 24 || errors.length > 0, 30_000);
  expect(errors).toEqual([]);
  // an overtaken frame (its callback came after the worker published past it) is drawn at the older state of the
  // mesh's pair, and counted, where the sampler has its history: ../browser/steadyframe.test.tsx checks those
  const done = (await Promise.all(captures)).filter((c) => !c.overtaken);
  expect(done.length).toBeGreaterThan(8);
  const alphas = new Set<number>();
  for (const [k, c] of done.entries()) {
    expect(c.frame.count, `capture ${k}`).toBe(3);
    expect(c.alpha, `capture ${k}: the mesh's alpha is the sample's`).toBeCloseTo(c.frame.alpha, 6);
    alphas.add(Math.round(c.alpha * 100));
    const drawn = markersIn(c.pixels, VIEW, 3);
    c.frame.centres.forEach(([x, y], i) => {
      const m = drawn[i];
      expect(m, `capture ${k}, entity ${i}: drawn`).not.toBeNull();
      expect(Math.hypot(m!.x - x, m!.y - y), `capture ${k} (alpha ${c.alpha.toFixed(3)}), entity ${i} vs runtime.sample`).toBeLessThan(0.05);
    });
  }
  // 60 Hz frames over 20 Hz ticks, paced: about three alphas a tick, each frame at its own
  expect(alphas.size, 'frames at several alphas').toBeGreaterThanOrEqual(3);
  expect(handle.current!.stats.fullUploads + handle.current!.stats.swaps).toBeGreaterThan(2);
});

it('each entry refuses the other renderer, at set-up, naming the one to use', async () => {
  // r3f also hands every error its scene throws to reportError (an error event on the window, which fails a test
  // run): kept here instead
  const reported: unknown[] = [];
  const reportError = globalThis.reportError;
  globalThis.reportError = (error) => void reported.push(error);
  onTestFinished(() => void (globalThis.reportError = reportError));
  const wrong: Array<[ReactNode, 'webgpu' | 'webgl', string]> = [
    [<WebGlInstances<typeof motionSchema, MeshBasicMaterial> geometry={markerGeometry()} material={new MeshBasicMaterial()} fields={{ position: 'position' }} />, 'webgpu', WEBGPU_RENDERER],
    [<InterpolatedInstances<typeof motionSchema, MeshBasicNodeMaterial> geometry={markerGeometry()} material={new MeshBasicNodeMaterial()} fields={{ position: 'position' }} />, 'webgl', NOT_WEBGPU_RENDERER],
  ];
  for (const [element, gl, message] of wrong) {
    const { create } = runtimeMaker();
    const errors: unknown[] = [];
    await untilGpuProcess();
    mountCanvas(<Steadyframe create={create} render={false}>{element}</Steadyframe>, gl, (error) => errors.push(error));
    await waitFor(`the ${gl} renderer's error`, () => errors.length > 0, 20_000);
    expect((errors[0] as Error).message).toBe(message);
    expect(reported.map(String)).toContain(String(errors[0]));
    unmount!();
    unmount = undefined;
    // r3f disposes the renderer after the unmount: its device lost, destroyed (or dropped: above)
    if (gl === 'webgpu') await Promise.race([lastDevice!.lost, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
});
