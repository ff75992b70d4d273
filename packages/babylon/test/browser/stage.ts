/**
 * A Babylon scene drawing the three.js tests' motion window (packages/three/test/browser: the same fixture
 * worker, view and marker), on Babylon's WebGL 2 engine or its WebGPU engine, into a render target read back.
 * Never to the canvas: presenting a WebGPU canvas loses the device in this headless Chromium (docs/webgpu.md).
 */
import { Camera } from '@babylonjs/core/Cameras/camera.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { RenderTargetTexture } from '@babylonjs/core/Materials/Textures/renderTargetTexture.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreatePlane } from '@babylonjs/core/Meshes/Builders/planeBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { Scene } from '@babylonjs/core/scene.js';
import { ARM, markersIn, SQUARE, VIEW, type Marker, type View } from '../../../three/test/browser/motion-helpers.ts';

export type EngineKind = 'webgl' | 'webgpu';

/** Babylon's engine of `kind` on a new canvas of `width` x `height`. Throws where WebGPU has no adapter. */
export async function createEngine(kind: EngineKind, width: number, height: number): Promise<AbstractEngine> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  if (kind === 'webgl') {
    const engine = new Engine(canvas, false, { antialias: false, stencil: false, preserveDrawingBuffer: true });
    if (engine.webGLVersion < 2) throw new Error('Babylon made a WebGL 1 engine: the GPU path needs WebGL 2');
    return engine;
  }
  if (!(await WebGPUEngine.IsSupportedAsync)) throw new Error('no WebGPU here (navigator.gpu or an adapter missing): see docs/webgpu.md');
  const engine = new WebGPUEngine(canvas, { antialias: false, stencil: false });
  await engine.initAsync();
  return engine;
}

/** A 0.5 x 0.5 square centred at (1, 0, 0) in the entity's frame, facing the camera (-z), white, unlit. */
export function markerMesh(scene: Scene, name = 'marker'): Mesh {
  const mesh = CreatePlane(name, { size: SQUARE, sideOrientation: 2 /* both sides */ }, scene);
  mesh.bakeTransformIntoVertices(Matrix.Translation(ARM, 0, 0));
  const material = new StandardMaterial(`${name}-material`, scene);
  material.disableLighting = true;
  material.emissiveColor = new Color3(1, 1, 1);
  material.backFaceCulling = false;
  mesh.material = material;
  return mesh;
}

/** The stage: an orthographic camera on `view`, drawing into a render target of its pixels. */
export async function createStage(kind: EngineKind, view: View = VIEW) {
  const width = (view.right - view.left) * view.scale;
  const height = (view.top - view.bottom) * view.scale;
  const engine = await createEngine(kind, width, height);
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0, 0, 0, 1);
  // left-handed: a camera at -z looking along +z sees x to the right and y up, as the three.js tests' does
  const camera = new FreeCamera('camera', new Vector3(0, 0, -10), scene);
  camera.mode = Camera.ORTHOGRAPHIC_CAMERA;
  camera.orthoLeft = view.left;
  camera.orthoRight = view.right;
  camera.orthoBottom = view.bottom;
  camera.orthoTop = view.top;
  camera.minZ = 0.1;
  camera.maxZ = 100;
  camera.setTarget(Vector3.Zero());
  const target = new RenderTargetTexture('target', { width, height }, scene, { generateMipMaps: false });
  camera.outputRenderTarget = target;

  /** Renders the scene and reads the target back: RGBA, bottom row first (Babylon flips WebGPU's rows itself). */
  async function render(): Promise<Uint8Array> {
    // shaders compile in parallel: a material not ready yet draws nothing (a mesh first drawn now, a new variant)
    await scene.whenReadyAsync();
    scene.render();
    const read = await target.readPixels();
    if (read === null) throw new Error('the render target read back nothing');
    const pixels = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    return pixels;
  }

  return {
    engine,
    scene,
    camera,
    render,
    /** Each row's drawn marker (see three's `markersIn`), in world units. */
    async markers(rows: number): Promise<Array<Marker | null>> {
      return markersIn(await render(), view, rows);
    },
    dispose() {
      target.dispose();
      scene.dispose();
      engine.dispose();
    },
  };
}
