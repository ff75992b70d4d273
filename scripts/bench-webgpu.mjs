// The benchmark report's section and goals on three.js's WebGPURenderer against its WebGLRenderer (suite
// three-webgpu), rendered into docs/benchmarks.md by scripts/bench.mjs.
import { byDesign, entities, num, pooled, ratio, sp, table, times } from './bench-format.mjs';

const SIZES = [10_000, 100_000];
const DESIGNS = ['webgl', 'webgpu'];

/**
 * Issue #44's goal: the WebGPURenderer path against its WebGL path, the same scene in the same run. The page's
 * work a frame is what the GPU path promises to keep small; the GPU's own time a frame is software here.
 */
export function threeWebgpuGoals(data) {
  const goal = (n) => `three.js, ${entities(n)} entities: WebGPURenderer with the TSL blend costs the page no more a frame (update + render) than WebGLRenderer with the GLSL blend (same scene, same run)`;
  if (data === undefined) return SIZES.map((n) => ({ goal: goal(n), measured: 'not measured (suite three-webgpu did not run)', met: null, why: '' }));
  const { at, of } = byDesign(data.rows);
  return SIZES.map((n) => {
    if (at('webgl', n).length === 0 || at('webgpu', n).length === 0) return { goal: goal(n), measured: `not measured at ${entities(n)}`, met: null, why: '' };
    const m = (design, key) => of(design, n, key).median;
    const met = m('webgpu', 'workPerFrame') <= m('webgl', 'workPerFrame');
    return {
      goal: goal(n),
      measured:
        `WebGPU ${num(m('webgpu', 'workPerFrame'), 3)} ms (update ${num(m('webgpu', 'updatePerFrame'), 3)}, render ${num(m('webgpu', 'renderPerFrame'), 3)}), ` +
        `WebGL ${num(m('webgl', 'workPerFrame'), 3)} ms (update ${num(m('webgl', 'updatePerFrame'), 3)}, render ${num(m('webgl', 'renderPerFrame'), 3)}): ` +
        `${times(ratio(m('webgpu', 'workPerFrame'), m('webgl', 'workPerFrame')))}; the software GPU's frame ${num(m('webgpu', 'msPerFrame'), 0)} and ${num(m('webgl', 'msPerFrame'), 0)} ms`,
      met,
      why: met
        ? 'the page copies each new state once and sets an alpha on both; WebGPURenderer encodes its one draw as cheaply as WebGLRenderer issues it'
        : `WebGPURenderer's render costs the page more (${num(m('webgpu', 'renderPerFrame'), 3)} ms against ${num(m('webgl', 'renderPerFrame'), 3)}): three.js's node system updates its uniforms and bind groups and encodes a render pass every frame; both uploads go straight from the shared memory in update (WebGPU's queue.writeBuffer, WebGL's bufferSubData), each of both states on this software GPU, whose frames come ticks apart. Both GPUs are software here (SwiftShader): WebGPU's frame takes ${times(ratio(m('webgpu', 'msPerFrame'), m('webgl', 'msPerFrame')))} WebGL's`,
    };
  });
}

export function threeWebgpuSection(result) {
  const data = result?.data;
  if (data === undefined) return '';
  const { counts, at, of } = byDesign(data.rows);
  const rows = [];
  const first = [];
  const ratios = [];
  /** One first-frame figure of a design's runs at a count, pooled. */
  const firstOf = (design, count, key) => pooled(at(design, count).map((r) => r.firstFrame?.[key]));
  for (const count of counts) {
    for (const design of DESIGNS) {
      if (at(design, count).length === 0) continue;
      rows.push([
        entities(count),
        design,
        sp(of(design, count, 'frames'), 0),
        sp(of(design, count, 'seconds'), 1),
        sp(of(design, count, 'msPerFrame'), 0),
        sp(of(design, count, 'updatePerFrame'), 3),
        sp(of(design, count, 'renderPerFrame'), 3),
        sp(of(design, count, 'workPerFrame'), 3),
        sp(of(design, count, 'mainCpuPerFrame'), 1),
      ]);
      const stalled = at(design, count).map((r) => r.firstFrame?.stalled).filter(Boolean);
      first.push([
        entities(count),
        design,
        sp(firstOf(design, count, 'compileMs'), 0),
        sp(firstOf(design, count, 'uploadMs'), 0),
        sp(firstOf(design, count, 'firstMs'), 0),
        sp(firstOf(design, count, 'drawMs'), 0),
        stalled.length === 0 ? 'none' : stalled.join(', '),
      ]);
    }
    const m = (design, key) => of(design, count, key).median;
    ratios.push([
      entities(count),
      num(m('webgl', 'workPerFrame'), 3),
      num(m('webgpu', 'workPerFrame'), 3),
      times(ratio(m('webgpu', 'workPerFrame'), m('webgl', 'workPerFrame'))),
      times(ratio(m('webgpu', 'msPerFrame'), m('webgl', 'msPerFrame'))),
    ]);
  }
  const load = result.loadAverage ? ` Load average (1, 5, 15 min) before ${result.loadAverage.before.map((x) => x.toFixed(2)).join(', ')}, after ${result.loadAverage.after.map((x) => x.toFixed(2)).join(', ')} (2 cores: other sessions' tests).` : '';
  return `## 18. three.js: WebGPURenderer against WebGLRenderer

The same scene (the 3D simulation at 30 ticks/s, a 60 fps frame loop, one small triangle per entity) drawn by
\`@steadyframe/three\`'s GPU path two ways in one run: **webgl**, WebGLRenderer with \`@steadyframe/three\` (the GLSL
blend; uploads straight from the shared memory, \`{ renderer }\`); **webgpu**, WebGPURenderer on WebGPU with
\`@steadyframe/three/webgpu\` (the TSL node; each state copied into the storage attributes, \`queue.writeBuffer\` at
render). Both into a 320×240 render target (a presented WebGPU canvas loses its device in this headless Chromium).
**The GPU is software on both sides**: WebGL is SwiftShader, WebGPU is Dawn's SwiftShader adapter (${data.adapter},
Chromium with \`--enable-unsafe-webgpu\`); on a real GPU both would be far faster and their ratio different.
**Both keep one frame in flight** (a WebGL fence, WebGPU's \`onSubmittedWorkDone\`): a frame whose GPU work is not
done is skipped, as a swap chain holds a page back. Without it nothing throttles a page drawing into a target nobody
reads: WebGL reported 61 frames a second at 100k while its queue grew by minutes of SwiftShader work, and the
WebGPU measurement after it waited behind that queue (the "stall" of earlier runs: \`docs/webgpu.md\`). So frames a
second are the software GPU's rate here, a frame every 0.1 to 2 s, and each window lasts until it has drawn 3
frames (at least 1 s, at most 15 s). Each design runs twice per size in mirrored order, its windows pooled. Per
window: frames drawn, its seconds, ms a drawn frame (the GPU's frame time), the page's timing of \`mesh.update\` and
\`renderer.render\` per drawn frame and their sum (page work), the main thread's CPU per drawn frame (/proc; the
refreshes between drawn frames, which only ask whether the GPU is done, included).${result.measuredAt ? ` Measured ${result.measuredAt} (\`STEADYFRAME_BENCH_SUITES=three-webgpu STEADYFRAME_BENCH_MERGE=1 npm run bench\`), in a run of its own.` : ''}${load}

${table(['entities', 'design', 'frames / window', 's / window', 'ms / frame (GPU)', 'update / frame ms', 'render / frame ms', 'work / frame ms', 'main CPU / frame ms'], rows)}

Where the first frame's time goes (before the windows, each step until the GPU says it is done, capped at 90 s):
\`compileAsync\`; an upload of both states' channels (64 B an entity) into a scratch buffer (\`bufferSubData\`,
\`writeBuffer\`); the first frame (\`mesh.update\` with both states, a render); a render with no new state (the
median of 3). A step past its cap would be named as stalled:

${table(['entities', 'design', 'compile ms', 'upload ms', 'first frame ms', 'draw ms', 'stalled'], first)}

WebGPU over WebGL: page work per frame, and the GPU's time per frame:

${table(['entities', 'webgl work ms', 'webgpu work ms', 'work: webgpu / webgl', 'GPU frame: webgpu / webgl'], ratios)}
`;
}
