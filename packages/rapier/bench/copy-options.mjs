// The ways Rapier 0.21's JS API gives to read every body's pose, timed in Node over 10,000 bodies
// (`node packages/rapier/bench/copy-options.mjs`). The package README records the numbers.
import { PerformanceObserver, performance } from 'node:perf_hooks';
import RAPIER from '@dimforge/rapier3d-compat';

await RAPIER.init();
const N = Number(process.env.BODIES ?? 10_000);
const PASSES = Number(process.env.PASSES ?? 300);
const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
const bodies = [];
const handles = new Float64Array(N);
for (let i = 0; i < N; i++) {
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(i % 100, 10 + Math.floor(i / 100), 0));
  world.createCollider(RAPIER.ColliderDesc.ball(0.4), body);
  bodies.push(body);
  handles[i] = body.handle;
}
world.step();
const position = new Float32Array(3 * N);
const rotation = new Float32Array(4 * N);
const raw = world.bodies.raw;
const scratch = new Float32Array(4);
const v = { x: 0, y: 0, z: 0 };
const q = { x: 0, y: 0, z: 0, w: 1 };

let gcs = 0;
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcs++;
    gcMs += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

const options = {
  'body.translation() / rotation() (a new object each call)': () => {
    for (let i = 0; i < N; i++) {
      const t = bodies[i].translation();
      const r = bodies[i].rotation();
      position[3 * i] = t.x; position[3 * i + 1] = t.y; position[3 * i + 2] = t.z;
      rotation[4 * i] = r.x; rotation[4 * i + 1] = r.y; rotation[4 * i + 2] = r.z; rotation[4 * i + 3] = r.w;
    }
  },
  'body.translation(target) / rotation(target) (reused objects)': () => {
    for (let i = 0; i < N; i++) {
      const t = bodies[i].translation(v);
      const r = bodies[i].rotation(q);
      position[3 * i] = t.x; position[3 * i + 1] = t.y; position[3 * i + 2] = t.z;
      rotation[4 * i] = r.x; rotation[4 * i + 1] = r.y; rotation[4 * i + 2] = r.z; rotation[4 * i + 3] = r.w;
    }
  },
  'world.bodies.raw.rbTranslation(handle, scratch) / rbRotation (the glue)': () => {
    for (let i = 0; i < N; i++) {
      const h = handles[i];
      raw.rbTranslation(h, scratch);
      position[3 * i] = scratch[0]; position[3 * i + 1] = scratch[1]; position[3 * i + 2] = scratch[2];
      raw.rbRotation(h, scratch);
      rotation[4 * i] = scratch[0]; rotation[4 * i + 1] = scratch[1]; rotation[4 * i + 2] = scratch[2]; rotation[4 * i + 3] = scratch[3];
    }
  },
  'raw, plus rbIsSleeping(handle) first (all awake)': () => {
    for (let i = 0; i < N; i++) {
      const h = handles[i];
      if (raw.rbIsSleeping(h)) continue;
      raw.rbTranslation(h, scratch);
      position[3 * i] = scratch[0]; position[3 * i + 1] = scratch[1]; position[3 * i + 2] = scratch[2];
      raw.rbRotation(h, scratch);
      rotation[4 * i] = scratch[0]; rotation[4 * i + 1] = scratch[1]; rotation[4 * i + 2] = scratch[2]; rotation[4 * i + 3] = scratch[3];
    }
  },
  'bodies.forEachActiveRigidBody(islands, f) (all awake)': () => {
    let i = 0;
    world.bodies.forEachActiveRigidBody(world.islands, (body) => {
      const t = body.translation(v);
      position[3 * i] = t.x; position[3 * i + 1] = t.y; position[3 * i + 2] = t.z;
      i = (i + 1) % N;
    });
  },
};

const wait = () => new Promise((r) => setTimeout(r, 100));

/** Mean ms per pass, and the GCs observed during the passes (the observer reports after a turn). */
async function time(fn) {
  for (let i = 0; i < 20; i++) fn(); // warm up
  await wait();
  gcs = 0;
  gcMs = 0;
  const t0 = performance.now();
  for (let i = 0; i < PASSES; i++) fn();
  const ms = (performance.now() - t0) / PASSES;
  await wait();
  return { ms, gcs, gcMs };
}

console.log(`Rapier ${RAPIER.version()}, ${N} awake bodies, Node ${process.version}, ${PASSES} passes each`);
console.log('| option | ms per pass | ns per body | GCs during the passes |');
console.log('|---|---|---|---|');
for (const [name, fn] of Object.entries(options)) {
  const r = await time(fn);
  console.log(`| ${name} | ${r.ms.toFixed(3)} | ${((r.ms * 1e6) / N).toFixed(0)} | ${r.gcs} (${r.gcMs.toFixed(1)} ms) |`);
}
// all asleep: what the glue's pass costs when nothing moves
for (const body of bodies) body.sleep();
world.step(); // the island manager's active set follows on the next step
const { ms } = await time(options['raw, plus rbIsSleeping(handle) first (all awake)']);
console.log(`| raw with rbIsSleeping, all ${N} asleep (skipped) | ${ms.toFixed(3)} | ${((ms * 1e6) / N).toFixed(0)} | - |`);
const active = await time(options['bodies.forEachActiveRigidBody(islands, f) (all awake)']);
console.log(`| forEachActiveRigidBody, all asleep (no calls) | ${active.ms.toFixed(3)} | ${((active.ms * 1e6) / N).toFixed(0)} | - |`);
