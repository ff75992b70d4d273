/**
 * The three.js side, a table at a time. The rocks, thousands of them, are one InstancedMesh blended in the
 * vertex shader (the GPU path, given the rocks table: the page copies that table's bytes only). The ships and the
 * bullets, a handful, are drawn from the frame the runtime samples on the CPU, each table from its own range
 * and count (`frame.tables`): a mesh per ship, kept by its handle (`createHandlePool`), and the bullets as one
 * InstancedMesh. Bursts flash (flashes.ts) from the events of the frame that shows them.
 */
import {
  AmbientLight, BufferGeometry, ConeGeometry, DirectionalLight, DynamicDrawUsage, EdgesGeometry, Float32BufferAttribute,
  IcosahedronGeometry, InstancedMesh, LineBasicMaterial, LineSegments, Matrix4, Mesh, MeshBasicMaterial,
  MeshStandardMaterial, OrthographicCamera, PlaneGeometry, Quaternion, Scene, Vector3, WebGLRenderer,
} from 'three';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import { createHandlePool, type Frame, type FrameEvents, type Runtime } from 'steadyframe';
import { createFlashes } from './flashes.ts';
import { HALF_H, HALF_W, schema, type ArenaSchema } from './schema.ts';

const MAX_BULLETS = schema.$bullets.table.capacity;
const MAX_SHIPS = schema.$ships.table.capacity;

/** What one `draw` drew: the same object every frame. */
export interface DrawReport {
  bullets: number;
  /** Flashes started for the bursts this frame presented. */
  flashes: number;
}

export interface ArenaScene {
  readonly renderer: WebGLRenderer;
  /**
   * Draws the world at shared-clock time `ts`, with `frame` sampled at the same time for the ships and bullets, and
   * a flash for each burst in `events` (the events the frame presents).
   */
  draw(ts: number, frame: Frame<ArenaSchema>, events: FrameEvents): DrawReport;
  resize(): void;
}

/** A rock: an icosahedron whose faces get slightly different shades, so tumbling rocks do not all look alike. */
function rockGeometry(): BufferGeometry {
  const rock = new IcosahedronGeometry(1, 0); // non-indexed: three vertices per face
  const colors: number[] = [];
  const faces = rock.getAttribute('position').count / 3;
  for (let f = 0; f < faces; f++) {
    const shade = 0.75 + 0.25 * Math.abs(Math.sin(f * 12.9898) * 43758.5453 % 1);
    for (let v = 0; v < 3; v++) colors.push(shade, shade * (0.93 + 0.07 * (f % 3) / 2), shade * 0.9);
  }
  rock.setAttribute('color', new Float32BufferAttribute(colors, 3));
  return rock;
}

function shipGeometry(): BufferGeometry {
  // a flat arrowhead pointing along +x
  const cone = new ConeGeometry(1.5, 4.5, 3);
  cone.rotateZ(-Math.PI / 2);
  cone.scale(1, 1, 0.5);
  return cone;
}

/** A canvas's CSS size and the device pixel ratio (handed to a render worker, which cannot measure its canvas). */
export interface CssSize {
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
}

/**
 * The scene on `canvas`: the page's, or an OffscreenCanvas in the render worker, which gets its CSS size from
 * `size` (the page's runtime forwards it on every resize).
 */
export function createScene(
  runtime: Pick<Runtime<ArenaSchema>, 'schema' | 'capacity' | 'reader'>,
  canvas: HTMLCanvasElement | OffscreenCanvas,
  size: () => CssSize = () => ({ width: (canvas as HTMLCanvasElement).clientWidth, height: (canvas as HTMLCanvasElement).clientHeight, dpr: globalThis.devicePixelRatio || 1 }),
): ArenaScene {
  const renderer = new WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(Math.min(size().dpr, 2));
  renderer.setClearColor(0x070b16);
  const scene = new Scene();
  const camera = new OrthographicCamera(-HALF_W, HALF_W, HALF_H, -HALF_H, 0.1, 100);
  camera.position.z = 50;

  scene.add(new AmbientLight(0x8899bb, 1.2));
  const sun = new DirectionalLight(0xffe2c0, 2.6);
  sun.position.set(-30, 40, 50);
  scene.add(sun);

  const floor = new Mesh(new PlaneGeometry(2 * HALF_W, 2 * HALF_H), new MeshBasicMaterial({ color: 0x0c1224 }));
  floor.position.z = -10;
  const border = new LineSegments(new EdgesGeometry(floor.geometry), new LineBasicMaterial({ color: 0x2a3a66 }));
  border.position.z = -9;
  scene.add(floor, border);

  const rockMaterial = new MeshStandardMaterial({ color: 0xc2a68c, roughness: 0.85, flatShading: true, vertexColors: true });
  const rocks = createInterpolatedInstancedMesh(runtime, rockGeometry(), rockMaterial, {
    position: 'position', rotation: 'rotation', scale: 'size',
  }, { renderer, table: 'rocks' }); // each tick's rocks straight from the shared memory to the GPU
  rocks.mesh.frustumCulled = false;
  scene.add(rocks.mesh);

  // a mesh per ship, made when its ship appears and kept by its handle, whatever despawns move it in its table
  const shipShape = shipGeometry();
  const shipMaterial = new MeshStandardMaterial({ color: 0x52e3ff, emissive: 0x0a5a7a, flatShading: true });
  let drawn: Frame<ArenaSchema> | null = null; // the frame being drawn, for the ships' update
  let blink = false; // a ship safe after a crash shows on every other 120 ms
  const ships = createHandlePool<Mesh>(MAX_SHIPS, {
    create() {
      const ship = new Mesh(shipShape, shipMaterial);
      scene.add(ship);
      return ship;
    },
    update(ship, i) {
      const { position, heading, safe } = drawn!.tables.ships.fields;
      ship.position.set(position[2 * i]!, position[2 * i + 1]!, 2);
      ship.rotation.z = heading[i]!;
      ship.visible = !(safe[i]! > 0) || blink; // blinks while safe after a crash
    },
    release(ship) {
      scene.remove(ship);
    },
  });

  const bulletGeometry = new BufferGeometry();
  bulletGeometry.setAttribute('position', new Float32BufferAttribute([-1.8, -0.35, 0, 1.0, 0, 0, -1.8, 0.35, 0], 3));
  const bullets = new InstancedMesh(bulletGeometry, new MeshBasicMaterial({ color: 0xfff27a }), MAX_BULLETS);
  bullets.instanceMatrix.setUsage(DynamicDrawUsage);
  bullets.frustumCulled = false;
  scene.add(bullets);
  const flashes = createFlashes();
  scene.add(flashes.mesh);
  const report: DrawReport = { bullets: 0, flashes: 0 };

  const m = new Matrix4();
  const q = new Quaternion();
  const at = new Vector3();
  const one = new Vector3(1, 1, 1);
  const up = new Vector3(0, 0, 1);

  function resize(): void {
    const { width: w, height: h, dpr } = size();
    renderer.setPixelRatio(Math.min(dpr, 2));
    renderer.setSize(w, h, false);
    // fit the whole arena, with a margin, whatever the window's shape
    const scale = Math.max((HALF_W * 1.04) / (w / 2), (HALF_H * 1.04) / (h / 2));
    camera.left = (-w / 2) * scale;
    camera.right = (w / 2) * scale;
    camera.top = (h / 2) * scale;
    camera.bottom = (-h / 2) * scale;
    camera.updateProjectionMatrix();
  }
  resize();

  return {
    renderer,
    resize,
    draw(ts, frame, events) {
      rocks.update(ts);
      drawn = frame;
      blink = Math.floor(ts / 120) % 2 === 0;
      ships.sync(frame.tables.ships);
      drawn = null;
      const { fields, count } = frame.tables.bullets;
      const { position, heading } = fields;
      for (let i = 0; i < count; i++) {
        at.set(position[2 * i]!, position[2 * i + 1]!, 1);
        bullets.setMatrixAt(i, m.compose(at, q.setFromAxisAngle(up, heading[i]!), one));
      }
      bullets.count = count;
      bullets.instanceMatrix.needsUpdate = true;
      report.flashes = flashes.update(ts, events);
      report.bullets = count;
      renderer.render(scene, camera);
      return report;
    },
  };
}
