// The benchmark report's sections on games ported from other engines' published examples, measured side by side
// with the originals in one run (scripts/bench.mjs renders them into docs/benchmarks.md).
import { byDesign, entities, num, pooled, ratio, sp, table, times } from './bench-format.mjs';

/** Suite phaser-port: Phaser's Arcade example on the main thread, ported onto a worker, and the drawing floor. */
export function phaserPortSection(result) {
  const data = result?.data;
  if (data === undefined) return '';
  const { counts, at, of } = byDesign(data.rows);
  const first = (design, count) => pooled(at(design, count).map((r) => r.firstFrameMs));
  const rows = [];
  const ratios = [];
  for (const count of counts) {
    for (const design of ['arcade', 'port', 'gpu', 'floor']) {
      if (at(design, count).length === 0) continue;
      rows.push([
        entities(count),
        design,
        sp(of(design, count, 'rafPerSecond'), 1),
        sp(of(design, count, 'drawnPerRaf'), 3),
        sp(of(design, count, 'mainCpuPerFrame'), 2),
        sp(of(design, count, 'stepPerFrame'), 2),
        sp(of(design, count, 'workerCpuPerFrame'), 2),
        sp(of(design, count, 'totalCpuPerFrame'), 1),
        design === 'floor' ? '—' : num(first(design, count).median, 0),
      ]);
    }
    const main = (design) => of(design, count, 'mainCpuPerFrame').median;
    const floor = main('floor');
    ratios.push([
      entities(count),
      times(ratio(main('arcade'), main('port'))),
      `${num(main('arcade') - floor, 2)} / ${num(main('port') - floor, 2)} = ${times(ratio(main('arcade') - floor, main('port') - floor))}`,
      times(ratio(of('arcade', count, 'stepPerFrame').median, of('port', count, 'stepPerFrame').median)),
      times(ratio(main('arcade'), main('gpu'))),
      times(ratio(of('arcade', count, 'stepPerFrame').median, of('gpu', count, 'stepPerFrame').median)),
    ]);
  }
  return `## 12. A Phaser example, ported

Phaser's "group world bounds event" example (phaserjs/examples \`public/src/physics/arcade/group world bounds event.js\`:
balls under gravity bouncing off the world's edges, each stepping its frame at a bounce) as \`apps/phaser-balls\`
runs it, scaled up to ${counts.map(entities).join(', ')} balls in an 800×600 canvas, four ways: **arcade**, the example as
published, on Arcade physics on the main thread (fixed 60 Hz steps, no interpolation); **port**, the same scene on
steadyframe with default options (the balls in a 60 Hz worker, velocity in \`privateFields\`; \`SteadyframePlugin\` +
\`bindGroup\` on the page, each ball an Image); **gpu**, the same worker drawn by \`createInterpolatedSprites\` (one
Extern, each ball a point blended in the vertex shader, its frame from a field); **floor**, the arcade scene with its
physics paused: what Phaser and the browser cost to draw the same Images. Each design runs twice per size in
mirrored order (arcade, port, gpu, floor, floor, gpu, port, arcade), its windows pooled. Per 1 s window: **rAF/s**; **drawn/rAF**, renders per animation frame; the page main thread's
CPU per rendered frame (/proc); **step**, the page's timing of Phaser's whole loop step; the worker's and all
Chromium threads' CPU per rendered frame; **first frame**, ms from making the game to its first render with every
ball. Both scenes set \`render.antialiasGL: false\`: multisampling smooths nothing on sprites, and in software GL it
cut both to a fifth of the frame rate.${result.measuredAt ? ` Measured ${result.measuredAt} (\`STEADYFRAME_BENCH_SUITES=phaser-port STEADYFRAME_BENCH_MERGE=1 npm run bench\`), in a run of its own.` : ''}

${table(['balls', 'design', 'rAF/s', 'drawn/rAF', 'main CPU / frame ms', 'step / frame ms', 'worker CPU / frame ms', 'all CPU / frame ms', 'first frame ms'], rows)}

Main-thread time per rendered frame, arcade over port: in total, above the floor (the motion's own share: Arcade's
bodies against the runtime's blend and the binding's copy), and in the page's timing of Phaser's step; then
arcade over gpu, in total and in the step.

${table(['balls', 'main CPU, arcade / port', 'above the floor, arcade / port ms', 'step, arcade / port', 'main CPU, arcade / gpu', 'step, arcade / gpu'], ratios)}

`;
}
