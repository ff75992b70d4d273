/**
 * Which three.js renderer draws the pile: the one thing the two ways of drawing it differ in. The scene
 * (scene.ts) is the same for both; it asks this for a renderer and for its two blended meshes.
 *
 * ```text
 *  ?renderer=         draws with                                   the blend
 *  webgl (or none)    WebGLRenderer                                @steadyframe/three (GLSL, onBeforeCompile)
 *  webgpu             WebGPURenderer on a WebGPU device            @steadyframe/three/webgpu (a TSL node over
 *                                                                  storage buffers, node materials)
 *                     no adapter or no device: WebGLRenderer, and the HUD says why
 * ```
 *
 * The WebGPU side (renderer-webgpu.ts, with three/webgpu) is loaded only when it is chosen. Why not let
 * WebGPURenderer fall back by itself: the TSL blend draws on its WebGL 2 backend too (docs/webgpu.md), but on WebGL
 * the WebGLRenderer path is the lighter one (the GLSL blend, uploads straight from the shared memory, no node
 * system), so a page without WebGPU gets that.
 */
import type { BufferGeometry, Camera, ColorRepresentation, Object3D, Scene } from 'three';
import type { Runtime } from 'steadyframe';
import type { GlRenderer } from './gl-renderer.ts';
import type { PhysicsSchema } from './schema.ts';
import { createWebGlRenderer } from './renderer-webgl.ts';

export type RendererChoice = 'webgl' | 'webgpu';

/** What the scene calls on either renderer (WebGLRenderer and WebGPURenderer both have these). */
export interface FrameRenderer {
  render(scene: Scene, camera: Camera): unknown;
  setSize(width: number, height: number, updateStyle?: boolean): unknown;
  setPixelRatio(ratio: number): unknown;
  setClearColor(color: ColorRepresentation): unknown;
  setAnimationLoop(callback: ((time: number) => void) | null): unknown;
}

/** Either path's interpolated mesh, as the scene uses it. */
export interface BlendedMesh {
  readonly mesh: Object3D;
  /** Instances drawn (live entities in the pair last copied). */
  readonly count: number;
  /** Copies a newly published state to the GPU, if any, and sets the alpha of shared-clock time `time`. */
  update(time: number): boolean;
}

/** The fields a pile mesh draws: every body's pose, scaled by its shape's field (zero for the other shape). */
export interface PileFields {
  readonly position: 'position';
  readonly rotation: 'rotation';
  readonly scale: 'box' | 'ball';
}

export type PileRuntime = Pick<Runtime<PhysicsSchema>, 'schema' | 'capacity' | 'reader'>;

export interface PileRenderer {
  /** The API that draws. */
  readonly api: 'WebGL' | 'WebGPU';
  readonly renderer: FrameRenderer;
  /** The GPU (or software rasteriser) under it. */
  readonly device: GlRenderer;
  /** Why WebGL draws where WebGPU was asked for (no adapter, no device), or null. */
  readonly fellBack: string | null;
  /** Set once the WebGPU device is lost (the picture stops): its message. Null while it is alive, and on WebGL. */
  readonly lost: string | null;
  /** A blended mesh of `geometry` over every entity, in a standard (lit) material of `look`. */
  mesh(runtime: PileRuntime, geometry: BufferGeometry, look: { color: number; roughness: number }, fields: PileFields): BlendedMesh;
}

/** `?renderer=webgpu` asks for WebGPU; anything else is WebGL. */
export function askedRenderer(search: URLSearchParams): RendererChoice {
  return search.get('renderer') === 'webgpu' ? 'webgpu' : 'webgl';
}

/** The renderer for `choice` on `canvas`: WebGPU where the browser gives an adapter and a device, else WebGL. */
export async function createPileRenderer(choice: RendererChoice, canvas: HTMLCanvasElement): Promise<PileRenderer> {
  if (choice === 'webgl') return createWebGlRenderer(canvas, null);
  if (navigator.gpu === undefined) return createWebGlRenderer(canvas, 'no WebGPU in this browser');
  const adapter = await navigator.gpu.requestAdapter().catch(() => null);
  if (adapter === null) return createWebGlRenderer(canvas, 'no WebGPU adapter');
  let device: GPUDevice;
  try {
    // every feature the adapter has, as three.js asks for them when it makes its own device
    device = await adapter.requestDevice({ requiredFeatures: [...adapter.features] as GPUFeatureName[] });
  } catch (error) {
    return createWebGlRenderer(canvas, `no WebGPU device: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { createWebGpuRenderer } = await import('./renderer-webgpu.ts');
  return createWebGpuRenderer(canvas, adapter.info, device);
}
