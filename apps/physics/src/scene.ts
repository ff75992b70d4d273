/**
 * The three.js side: boxes and spheres are two InstancedMeshes over the same entities, blended in the vertex
 * shader (@steadyframe/three's GPU path: the page copies bytes, never an entity). Each mesh scales by its own
 * field (`box` or `ball`), which is zero for the bodies of the other shape.
 */
import {
  AmbientLight, BoxGeometry, Color, DirectionalLight, HemisphereLight, IcosahedronGeometry, MeshStandardMaterial,
  PerspectiveCamera, Plane, Raycaster, Scene, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import type { Runtime } from 'steadyframe';
import type { PhysicsSchema } from './schema.ts';

export interface PileScene {
  readonly renderer: WebGLRenderer;
  /** Draws the pile at shared-clock time `ts`; returns the instances each mesh drew. */
  draw(ts: number): number;
  /** Where a click at client (x, y) meets the floor plane, or null when it misses. */
  floorPoint(clientX: number, clientY: number): { x: number; z: number } | null;
  resize(): void;
}

/** The camera's vertical field of view, degrees, on a view at least MIN_ASPECT wide for its height. */
const FOV = 50;
const MIN_ASPECT = 1.3;

export function createPileScene(runtime: Pick<Runtime<PhysicsSchema>, 'schema' | 'capacity' | 'reader'>, canvas: HTMLCanvasElement): PileScene {
  const renderer = new WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
  renderer.setClearColor(0x0b1020);
  const scene = new Scene();
  scene.background = new Color(0x0b1020);
  const camera = new PerspectiveCamera(FOV, 1, 0.1, 500);
  camera.position.set(30, 26, 38);
  camera.lookAt(0, 2, 0);

  scene.add(new AmbientLight(0x8899bb, 0.6), new HemisphereLight(0xbfd4ff, 0x202030, 1.2));
  const sun = new DirectionalLight(0xfff0d8, 2.2);
  sun.position.set(-20, 40, 25);
  scene.add(sun);

  // each tick's state goes straight from the shared memory to the GPU (the renderer given)
  const boxes = createInterpolatedInstancedMesh(runtime, new BoxGeometry(1, 1, 1), new MeshStandardMaterial({ color: 0xd9a066, roughness: 0.7 }), {
    position: 'position', rotation: 'rotation', scale: 'box',
  }, { renderer });
  const balls = createInterpolatedInstancedMesh(runtime, new IcosahedronGeometry(1, 2), new MeshStandardMaterial({ color: 0x5fb3e6, roughness: 0.4 }), {
    position: 'position', rotation: 'rotation', scale: 'ball',
  }, { renderer });
  boxes.mesh.frustumCulled = false;
  balls.mesh.frustumCulled = false;
  scene.add(boxes.mesh, balls.mesh);

  const raycaster = new Raycaster();
  const floor = new Plane(new Vector3(0, 1, 0), 0);
  const pointer = new Vector2();
  const hit = new Vector3();

  function resize(): void {
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    // a narrow view (a phone held upright) keeps the horizontal field of a MIN_ASPECT one: the pile fits across
    const halfTan = Math.tan(((FOV / 2) * Math.PI) / 180) * Math.max(1, MIN_ASPECT / camera.aspect);
    camera.fov = (2 * Math.atan(halfTan) * 180) / Math.PI;
    camera.updateProjectionMatrix();
  }
  resize();

  return {
    renderer,
    resize,
    draw(ts) {
      boxes.update(ts);
      balls.update(ts);
      renderer.render(scene, camera);
      return boxes.count;
    },
    floorPoint(clientX, clientY) {
      const rect = canvas.getBoundingClientRect();
      pointer.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
      raycaster.setFromCamera(pointer, camera);
      return raycaster.ray.intersectPlane(floor, hit) === null ? null : { x: hit.x, z: hit.z };
    },
  };
}
