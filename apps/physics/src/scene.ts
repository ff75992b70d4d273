/**
 * The three.js side: boxes and spheres are two instanced meshes over the same entities, blended in the vertex
 * stage (@steadyframe/three's GPU path: the page copies bytes, never an entity). Each mesh scales by its own
 * field (`box` or `ball`), which is zero for the bodies of the other shape. The renderer and the meshes' blend
 * come from `gpu` (renderers.ts: WebGLRenderer's GLSL, or WebGPURenderer's TSL node); the rest is the same.
 */
import {
  AmbientLight, BoxGeometry, Color, DirectionalLight, HemisphereLight, IcosahedronGeometry,
  PerspectiveCamera, Plane, Raycaster, Scene, Vector2, Vector3,
} from 'three';
import type { FrameRenderer, PileRenderer, PileRuntime } from './renderers.ts';

export interface PileScene {
  readonly renderer: FrameRenderer;
  /** Draws the pile at shared-clock time `ts`; returns the instances each mesh drew. */
  draw(ts: number): number;
  /** Where a click at client (x, y) meets the floor plane, or null when it misses. */
  floorPoint(clientX: number, clientY: number): { x: number; z: number } | null;
  resize(): void;
}

/** The camera's vertical field of view, degrees, on a view at least MIN_ASPECT wide for its height. */
const FOV = 50;
const MIN_ASPECT = 1.3;

export function createPileScene(runtime: PileRuntime, canvas: HTMLCanvasElement, gpu: PileRenderer): PileScene {
  const renderer = gpu.renderer;
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

  // each tick's state goes to the GPU once (on WebGL straight from the shared memory), blended there every frame
  const boxes = gpu.mesh(runtime, new BoxGeometry(1, 1, 1), { color: 0xd9a066, roughness: 0.7 }, {
    position: 'position', rotation: 'rotation', scale: 'box',
  });
  const balls = gpu.mesh(runtime, new IcosahedronGeometry(1, 2), { color: 0x5fb3e6, roughness: 0.4 }, {
    position: 'position', rotation: 'rotation', scale: 'ball',
  });
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
