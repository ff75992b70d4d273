/**
 * The three.js side, a table at a time. The rocks, thousands of them, are one InstancedMesh blended in the
 * vertex shader (the GPU path, given the rocks table: the page copies that table's bytes only). The ships and the
 * bullets, a handful, are drawn from the frame the runtime samples on the CPU, each table from its own range
 * and count (`frame.tables`): a mesh per ship, kept by its handle (`bindObjects` given the ships table: a handle
 * pool), and the bullets as one InstancedMesh (`bindInstancedMesh` given the bullets table). Bursts flash
 * (flashes.ts) from the events of the frame that shows them.
 */
import {
  AmbientLight, BufferGeometry, ConeGeometry, DirectionalLight, EdgesGeometry, Float32BufferAttribute,
  IcosahedronGeometry, InstancedMesh, LineBasicMaterial, LineSegments, Mesh, MeshBasicMaterial,
  MeshStandardMaterial, OrthographicCamera, PlaneGeometry, Scene, WebGLRenderer,
} from 'three';
import { bindInstancedMesh, bindObjects, createInterpolatedInstancedMesh } from '@steadyframe/three';
import type { Frame, FrameEvents, Runtime } from 'steadyframe';
import { createFlashes } from './flashes.ts';
import { HALF_H, HALF_W, schema, type ArenaSchema } from './schema.ts';

const MAX_BULLETS = schema.$bullets.table.capacity;

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

  // a mesh per ship, made when its ship shows and kept by its handle (whatever despawns move it in its table)
  const shipShape = shipGeometry();
  const shipMaterial = new MeshStandardMaterial({ color: 0x52e3ff, emissive: 0x0a5a7a, flatShading: true });
  const ships = bindObjects(runtime, { table: 'ships', parent: scene, create: () => new Mesh(shipShape, shipMaterial) }, { position: 'position', rotation: 'heading' });

  const bulletGeometry = new BufferGeometry();
  bulletGeometry.setAttribute('position', new Float32BufferAttribute([-1.8, -0.35, 0, 1.0, 0, 0, -1.8, 0.35, 0], 3));
  const bullets = bindInstancedMesh(runtime, new InstancedMesh(bulletGeometry, new MeshBasicMaterial({ color: 0xfff27a }), MAX_BULLETS), {
    position: 'position', rotation: 'heading',
  }, { table: 'bullets' });
  bullets.mesh.position.z = 1; // over the rocks' middles
  scene.add(bullets.mesh);
  const flashes = createFlashes();
  scene.add(flashes.mesh);
  const report: DrawReport = { bullets: 0, flashes: 0 };

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
      ships.update(frame);
      const table = frame.tables.ships;
      const blink = Math.floor(ts / 120) % 2 === 0;
      for (let i = 0; i < table.count; i++) {
        const ship = ships.get(table.handle(i))!;
        ship.position.z = 2;
        ship.visible = !(table.fields.safe[i]! > 0) || blink; // blinks while safe after a crash
      }
      bullets.update(frame);
      report.flashes = flashes.update(ts, events);
      report.bullets = bullets.mesh.count;
      renderer.render(scene, camera);
      return report;
    },
  };
}
