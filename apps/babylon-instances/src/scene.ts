/**
 * The Babylon scene: a camera orbiting the swarm, two lights, and one box mesh whose thin instances are the
 * bodies, blended on the GPU by @steadyframe/babylon through the box's own StandardMaterial.
 */
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Camera } from '@babylonjs/core/Cameras/camera.js';
import '@babylonjs/core/Cameras/Inputs/arcRotateCameraPointersInput.js';
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { Scene } from '@babylonjs/core/scene.js';

export type EngineChoice = 'webgl' | 'webgpu';

/** Babylon's WebGL 2 engine, or its WebGPU engine where asked for and there is an adapter (else WebGL 2). */
export async function createEngine(canvas: HTMLCanvasElement, choice: EngineChoice): Promise<AbstractEngine> {
  if (choice === 'webgpu' && (await WebGPUEngine.IsSupportedAsync)) {
    const engine = new WebGPUEngine(canvas, { antialias: true, adaptToDeviceRatio: true });
    await engine.initAsync();
    return engine;
  }
  return new Engine(canvas, true, { stencil: false }, true);
}

/** The scene, and the box whose thin instances the bodies become. */
export function createSwarmScene(engine: AbstractEngine): { scene: Scene; bodies: Mesh; camera: ArcRotateCamera } {
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0.027, 0.031, 0.06, 1);
  const camera = new ArcRotateCamera('camera', -Math.PI / 2.6, Math.PI / 2.9, 78, new Vector3(0, -2, 0), scene);
  camera.lowerRadiusLimit = 15;
  camera.upperRadiusLimit = 160;
  camera.attachControl(true);
  const sky = new HemisphericLight('sky', new Vector3(0, 1, 0), scene);
  sky.intensity = 0.55;
  sky.groundColor = new Color3(0.15, 0.1, 0.25);
  const sun = new DirectionalLight('sun', new Vector3(-0.5, -1, 0.4), scene);
  sun.intensity = 0.9;
  const bodies = CreateBox('bodies', { size: 0.42 }, scene);
  const material = new StandardMaterial('bodies', scene);
  material.diffuseColor = new Color3(1, 0.62, 0.25);
  material.specularColor = new Color3(0.35, 0.3, 0.25);
  material.emissiveColor = new Color3(0.12, 0.05, 0.02);
  bodies.material = material;
  return { scene, bodies, camera };
}

/**
 * Fits the view to the canvas: the field of view held across the screen's shorter side, so a narrow (phone)
 * screen sees the whole swarm as a wide one does.
 */
export function fitCamera(camera: ArcRotateCamera, engine: AbstractEngine): void {
  const portrait = engine.getRenderWidth() < engine.getRenderHeight();
  camera.fovMode = portrait ? Camera.FOVMODE_HORIZONTAL_FIXED : Camera.FOVMODE_VERTICAL_FIXED;
}
