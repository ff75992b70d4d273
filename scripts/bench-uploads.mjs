// The benchmark report's section on @steadyframe/three's GPU-path uploads (suite three-upload), rendered into
// docs/benchmarks.md by scripts/bench.mjs.
import { byDesign, entities, num, ratio, sp, table, times } from './bench-format.mjs';

export function threeUploadSection(result) {
  const data = result?.data;
  if (data === undefined) return '';
  const { counts, at, of } = byDesign(data.rows);
  const rows = [];
  const ratios = [];
  for (const count of counts) {
    for (const design of ['copy', 'direct']) {
      const runs = at(design, count);
      if (runs.length === 0) continue;
      rows.push([
        entities(count),
        design,
        sp(of(design, count, 'frames'), 0),
        sp(of(design, count, 'updatePerFrame'), 3),
        sp(of(design, count, 'renderPerFrame'), 3),
        sp(of(design, count, 'workPerFrame'), 3),
        sp(of(design, count, 'mainCpuPerFrame'), 2),
        sp(of(design, count, 'uploadsPerFrame'), 2),
        `${num(100 * Math.min(...runs.map((r) => r.directShare)), 0)}%`,
      ]);
    }
    const work = (design) => of(design, count, 'workPerFrame').median;
    ratios.push([entities(count), num(work('copy'), 3), num(work('direct'), 3), times(ratio(work('copy'), work('direct')))]);
  }
  return `## 13. three.js uploads straight from the shared memory

\`@steadyframe/three\`'s GPU path (\`createInterpolatedInstancedMesh\`) drawing the same 3D simulation (30 ticks/s, a 60 fps
frame loop, one small triangle per entity in a 320×240 canvas, \`px=N\` for another width), two ways: **copy**, without \`{ renderer }\`: each new
state copied into three.js's attribute arrays in \`update\`, which three.js uploads in \`render\`; **direct**, with
\`{ renderer }\`: \`gl.bufferSubData\` of the runtime's own views of the shared memory, under its lock, into the mesh's
GLBufferAttributes. Each design runs twice per size in mirrored order, its windows pooled. Per 1 s window:
frames, the page's timing of \`mesh.update\` and \`renderer.render\` per frame and their sum (the mesh's page work), the
main thread's CPU per frame (/proc), uploads per frame, and the share that went straight.${result.measuredAt ? ` Measured ${result.measuredAt} (\`STEADYFRAME_BENCH_SUITES=three-upload STEADYFRAME_BENCH_MERGE=1 npm run bench\`), in a run of its own.` : ''}

${table(['entities', 'design', 'frames / s', 'update / frame ms', 'render / frame ms', 'work / frame ms', 'main CPU / frame ms', 'uploads / frame', 'direct'], rows)}

Where frames come slower than ticks (software GL draws an instanced mesh instance by instance: at 100k, a few
frames a second whatever the canvas's size), nearly every frame uploads, often both states (several ticks passed);
at 60 frames a second and 30 ticks a second, every other frame would upload one state. The floor table below is
what one state's upload costs the page by itself.

Page work per frame for the mesh (update + render), copy over direct:

${table(['entities', 'copy ms', 'direct ms', 'copy / direct'], ratios)}
${
  data.floors === undefined
    ? ''
    : `
The upload's own floor: one \`gl.bufferSubData\` of one state's bytes (32 an entity), timed on the page (40 calls a
sample, 15 samples), from a view of shared memory (what the direct path passes) and of plain memory (what three.js
passes after the copy):

${table(
        ['entities', 'MB', 'from shared memory ms', 'from plain memory ms'],
        data.floors.map((f) => [entities(f.count), num(f.bytes / 1e6, 2), sp(f.sharedMs, 3), sp(f.plainMs, 3)]),
      )}
`
}
`;
}
