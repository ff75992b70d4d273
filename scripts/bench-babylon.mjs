// The benchmark report's section and goals on @steadyframe/babylon (suite babylon): our GPU blend against plain
// Babylon moving the same thin instances from a simulation on the page, rendered into docs/benchmarks.md by
// scripts/bench.mjs.
import { byDesign, entities, num, ratio, sp, table, times } from './bench-format.mjs';

const SIZES = [10_000, 100_000];

/** Issue #44's goal: at 10k and 100k thin instances, the GPU blend costs the main thread less than plain Babylon. */
export function babylonGoals(data) {
  const goal = (n) => `Babylon.js, ${entities(n)} thin instances: our GPU blend's main-thread work a frame below plain Babylon's (simulation on the page, matrices rewritten each frame)`;
  if (data === undefined) return SIZES.map((n) => ({ goal: goal(n), measured: 'not measured (suite babylon did not run)', met: null, why: '' }));
  const { at, of } = byDesign(data.rows);
  return SIZES.map((n) => {
    if (at('gpu', n).length === 0 || at('plain', n).length === 0) return { goal: goal(n), measured: `not measured at ${entities(n)}`, met: null, why: '' };
    const work = (design) => of(design, n, 'workPerFrame').median;
    const move = (design) => of(design, n, 'movePerFrame').median;
    const met = work('gpu') < work('plain');
    return {
      goal: goal(n),
      measured: `ours ${num(work('gpu'), 3)} ms (update ${num(move('gpu'), 3)} ms), plain ${num(work('plain'), 3)} ms (step + matrices ${num(move('plain'), 3)} ms): ${times(ratio(work('plain'), work('gpu')))}`,
      met,
      why: met
        ? `the page moves nothing per instance: one upload of 32 bytes an instance per publish, straight from the shared memory, and an alpha; plain Babylon steps the bodies and composes and uploads 64 bytes of matrix an instance every frame`
        : `scene.render (the same for both) dominates here; the moving part: ours ${num(move('gpu'), 3)} ms, plain ${num(move('plain'), 3)} ms`,
    };
  });
}

export function babylonSection(result) {
  const data = result?.data;
  if (data === undefined) return '';
  const { counts, at, of } = byDesign(data.rows);
  const rows = [];
  const ratios = [];
  for (const count of counts) {
    for (const design of ['plain', 'gpu']) {
      if (at(design, count).length === 0) continue;
      rows.push([
        entities(count),
        design,
        sp(of(design, count, 'frames'), 0),
        sp(of(design, count, 'movePerFrame'), 3),
        sp(of(design, count, 'renderPerFrame'), 3),
        sp(of(design, count, 'workPerFrame'), 3),
        sp(of(design, count, 'mainCpuPerFrame'), 2),
      ]);
    }
    const work = (design) => of(design, count, 'workPerFrame').median;
    const move = (design) => of(design, count, 'movePerFrame').median;
    ratios.push([entities(count), num(work('plain'), 3), num(work('gpu'), 3), times(ratio(work('plain'), work('gpu'))), times(ratio(move('plain'), move('gpu')))]);
  }
  return `## 17. Babylon.js thin instances: the GPU blend against plain Babylon

The same 3D bodies (the frame suite's world: each drifts and turns, 30 ticks/s) drawn as one plane mesh's thin
instances (StandardMaterial, unlit) in a 320×240 canvas on Babylon's WebGL 2 engine, a 60 fps loop, two ways:
**plain**, Babylon as its docs move thin instances: the simulation steps on the page (a fixed 30 Hz step with
catch-up), and each frame the thin-instance matrix buffer is rewritten from the newest state and uploaded
(\`thinInstanceBufferUpdated('matrix')\`); **gpu**, \`@steadyframe/babylon\`'s \`createInterpolatedThinInstances\`: the
simulation in a worker, each new state uploaded once straight from the shared memory, the vertex shader blending to
the frame's time. Each design runs twice per size in mirrored order, its windows pooled. Per 1 s window: frames,
the page's timing per frame of the moving (plain: steps and matrices; gpu: \`update()\`) and of \`scene.render\`,
their sum, and the main thread's CPU per frame (/proc).${result.measuredAt ? ` Measured ${result.measuredAt} (\`STEADYFRAME_BENCH_SUITES=babylon STEADYFRAME_BENCH_MERGE=1 npm run bench\`), in a run of its own.` : ''}

${table(['instances', 'design', 'frames / s', 'move / frame ms', 'render / frame ms', 'work / frame ms', 'main CPU / frame ms'], rows)}

Software GL draws instanced meshes slowly (at 100k, a few frames a second whatever the design): \`render\` is
mostly the same for both designs; the moving part is what differs. Main-thread work per frame, plain over gpu:

${table(['instances', 'plain ms', 'gpu ms', 'plain / gpu (work)', 'plain / gpu (moving)'], ratios)}
`;
}
