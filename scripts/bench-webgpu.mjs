// The benchmark report's section on three.js's WebGPURenderer against its WebGLRenderer (suite three-webgpu),
// rendered into docs/benchmarks.md by scripts/bench.mjs.
import { byDesign, entities, num, ratio, sp, table, times } from './bench-format.mjs';

export function threeWebgpuSection(result) {
  const data = result?.data;
  if (data === undefined) return '';
  const { counts, at, of } = byDesign(data.rows);
  const rows = [];
  const ratios = [];
  for (const count of counts) {
    for (const design of ['webgl', 'webgpu']) {
      if (at(design, count).length === 0) continue;
      rows.push([
        entities(count),
        design,
        sp(of(design, count, 'frames'), 0),
        sp(of(design, count, 'updatePerFrame'), 3),
        sp(of(design, count, 'renderPerFrame'), 3),
        sp(of(design, count, 'workPerFrame'), 3),
        sp(of(design, count, 'mainCpuPerFrame'), 2),
      ]);
    }
    const work = (design) => of(design, count, 'workPerFrame').median;
    ratios.push([entities(count), num(work('webgl'), 3), num(work('webgpu'), 3), times(ratio(work('webgpu'), work('webgl')))]);
  }
  return `## 18. three.js: WebGPURenderer against WebGLRenderer

The same scene (the 3D simulation at 30 ticks/s, a 60 fps frame loop, one small triangle per entity) drawn by
\`@steadyframe/three\`'s GPU path two ways in one run: **webgl**, WebGLRenderer with \`@steadyframe/three\` (the GLSL
blend; uploads straight from the shared memory, \`{ renderer }\`); **webgpu**, WebGPURenderer on WebGPU with
\`@steadyframe/three/webgpu\` (the TSL node; each state copied into the storage attributes, \`queue.writeBuffer\` at
render; at most one frame in flight: a frame whose last submit the GPU has not finished is skipped, as a swap chain
would hold it back, where WebGL's driver blocks by itself). Both into a 320×240 render target (a presented WebGPU canvas loses its device in this headless Chromium).
**The GPU is software on both sides**: WebGL is SwiftShader, WebGPU is Dawn's SwiftShader adapter (${data.adapter},
Chromium with \`--enable-unsafe-webgpu\`); on a real GPU both would be far faster and their ratio different. Each design
runs twice per size in mirrored order, its windows pooled. Per 1 s window: frames, the page's timing of \`mesh.update\`
and \`renderer.render\` per frame and their sum (page work), the main thread's CPU per frame (/proc).${result.measuredAt ? ` Measured ${result.measuredAt} (\`STEADYFRAME_BENCH_SUITES=three-webgpu STEADYFRAME_BENCH_MERGE=1 npm run bench\`), in a run of its own.` : ''}

${table(['entities', 'design', 'frames / s', 'update / frame ms', 'render / frame ms', 'work / frame ms', 'main CPU / frame ms'], rows)}

Page work per frame (update + render), WebGPU over WebGL:

${table(['entities', 'webgl ms', 'webgpu ms', 'webgpu / webgl'], ratios)}
`;
}
