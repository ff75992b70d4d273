// `npm run bench`: builds apps/bench, serves it with `vite preview` on a free port, runs each suite in a fresh
// page of headless Chromium (Debian's, through playwright; never a downloaded one), prints tables of ratios
// against baselines measured in the same run, and writes docs/benchmarks.json and docs/benchmarks.md.
//
//   STEADYFRAME_BENCH_QUICK=1        a short run to try things out (writes nothing unless ..._OUT is set)
//   STEADYFRAME_BENCH_SUITES=a,b     only these suites (frame, transport, motion, timing, lock, publish, physics, pixi, pixi-churn, pixi-port, phaser-port, three-upload, three-webgpu, babylon,
//                                    r3f-port, render, events, tables)
//   STEADYFRAME_BENCH_OUT=dir        where to write benchmarks.json / benchmarks.md (default: docs/)
//   STEADYFRAME_BENCH_MERGE=1        keep the other suites of the benchmarks.json there: this run's suites replace
//                                    theirs, stamped with their date (a suite re-measured on its own)
//   STEADYFRAME_BENCH_JS_FLAGS=' --x' more V8 flags for the browser (experiments, e.g. ' --no-liftoff')
//   STEADYFRAME_BENCH_RENDER=file    only re-render benchmarks.md beside that benchmarks.json (no measuring)
//   STEADYFRAME_BENCH_PARAMS='k=v&..' more query parameters for every suite's page (a suite's own narrowing,
//                                    e.g. 'sizes=100000&designs=gpu,gpu-still&windows=4' for pixi)
//
// On a shared machine, keep browser runs apart: flock /tmp/steadyframe-browser.lock npm run bench
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { build, preview } from 'vite';
import { entities, isNum, num, pct, ratio, sp, table, times } from './bench-format.mjs';
import { phaserPortSection } from './bench-ports.mjs';
import { r3fPortGoals, r3fPortSection } from './bench-r3f.mjs';
import { threeUploadSection } from './bench-uploads.mjs';
import { babylonGoals, babylonSection } from './bench-babylon.mjs';
import { threeWebgpuGoals, threeWebgpuSection } from './bench-webgpu.mjs';
import { CHROMIUM_ARGS, findChromium, freePort, MISSING_CHROMIUM_MESSAGE, WEBGPU_CHROMIUM_ARGS } from './engines.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const APP = join(ROOT, 'apps', 'bench');
const ALL_SUITES = ['frame', 'transport', 'motion', 'timing', 'lock', 'publish', 'physics', 'pixi', 'pixi-churn', 'pixi-port', 'phaser-port', 'three-upload', 'three-webgpu', 'babylon', 'r3f-port', 'render', 'events', 'tables'];
/** Minutes a suite's page may take; 8 unless named (r3f-port mounts 10k React components and steps 10k bodies on the page; three-webgpu waits for a software GPU's frames, 1 to 2 s each at 100k). */
const SUITE_TIMEOUT_MINUTES = { 'r3f-port': 25, 'three-webgpu': 12 };
const quick = process.env.STEADYFRAME_BENCH_QUICK === '1';
const suites = (process.env.STEADYFRAME_BENCH_SUITES ?? ALL_SUITES.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
const outDir = process.env.STEADYFRAME_BENCH_OUT ?? (quick ? null : join(ROOT, 'docs'));
const merging = process.env.STEADYFRAME_BENCH_MERGE === '1';
for (const s of suites) {
  if (!ALL_SUITES.includes(s)) {
    console.error(`steadyframe bench: unknown suite "${s}"; pick from ${ALL_SUITES.join(', ')}`);
    process.exit(1);
  }
}

/**
 * The run written over an earlier one (STEADYFRAME_BENCH_MERGE=1): the earlier file's suites stay, this run's
 * replace theirs, each stamped with the date it was measured (its section says so; the header keeps the earlier
 * run's machine and date).
 */
function mergeInto(path, run) {
  if (!existsSync(path)) return run;
  const earlier = JSON.parse(readFileSync(path, 'utf8'));
  for (const [suite, result] of Object.entries(run.results)) {
    earlier.results[suite] = { ...result, measuredAt: run.date };
    delete earlier.errors?.[suite];
  }
  earlier.errors = { ...earlier.errors, ...run.errors };
  return earlier;
}

/** The Chromium processes under `rootPid` (this script: playwright spawns the browser), with each one's --type. */
function chromiumProcesses(rootPid) {
  const parent = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = parent.get(p) ?? 0, hops++) if (p === rootPid) return true;
    return false;
  };
  const result = [];
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    let type = 'browser';
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(cmdline.split('\0')[0] ?? '')) continue; // vite's helpers, a shell: not the browser
      type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
    } catch {
      continue;
    }
    result.push({ pid, type });
  }
  return result;
}

/** CPU ns of every thread of every Chromium process: /proc/<pid>/task/<tid>/schedstat, field 1. */
function procSnapshot(rootPid) {
  const threads = [];
  for (const { pid, type } of chromiumProcesses(rootPid)) {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        threads.push({ pid, tid: Number(tid), name, type, ns });
      } catch {
        // the thread ended while we looked
      }
    }
  }
  return { threads };
}

function machine(browserVersion) {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const mhz = /^cpu MHz\s*:\s*(.*)$/m.exec(cpuinfo)?.[1];
  let chromiumVersion = browserVersion;
  try {
    chromiumVersion = execFileSync(findChromium(), ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // keep playwright's answer
  }
  return {
    cpu: model,
    cpuMHz: mhz === undefined ? null : Number(mhz),
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    chromium: chromiumVersion,
    browserVersion,
    loadAverageAtStart: os.loadavg(),
  };
}

async function main() {
  const executablePath = findChromium();
  if (executablePath === null) {
    console.error(MISSING_CHROMIUM_MESSAGE);
    process.exit(1);
  }
  const started = Date.now();
  console.log(`steadyframe bench: building apps/bench${quick ? ' (quick run)' : ''}`);
  await build({ root: APP, configFile: join(APP, 'vite.config.ts'), logLevel: 'warn' });
  const port = await freePort();
  const server = await preview({ root: APP, configFile: join(APP, 'vite.config.ts'), logLevel: 'warn', preview: { port, strictPort: true, host: '127.0.0.1' } });
  const base = `http://127.0.0.1:${port}/`;
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      // --enable-unsafe-webgpu (Dawn's SwiftShader adapter) only for a run with the three-webgpu suite
      ...(suites.includes('three-webgpu') ? WEBGPU_CHROMIUM_ARGS : CHROMIUM_ARGS),
      // gc() between measurements; no throttling of a page nobody looks at
      `--js-flags=--expose-gc${process.env.STEADYFRAME_BENCH_JS_FLAGS ?? ''}`,
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ],
  });
  const browserPid = process.pid;
  const results = {};
  const errors = {};
  let info;
  try {
    for (const suite of suites) {
      const t = Date.now();
      // the machine's load around each suite (a shared machine: other sessions' test runs), kept with its results
      const loadBefore = os.loadavg();
      console.log(`steadyframe bench: load average ${loadBefore.map((x) => x.toFixed(2)).join(', ')} (1, 5, 15 min) before suite ${suite}`);
      const page = await browser.newPage();
      page.on('console', (message) => {
        const text = message.text();
        if (text.startsWith('[bench]')) console.log(`  ${text.slice(8)}`);
        else if (message.type() === 'error' || message.type() === 'warning') console.log(`  (${message.type()}) ${text}`);
      });
      page.on('pageerror', (error) => console.log(`  (page error) ${error.message}`));
      // a string: the page decodes it with JSON.parse, much cheaper on its main thread than playwright's decoding
      await page.exposeFunction('__procSnapshot', () => JSON.stringify(procSnapshot(browserPid)));
      console.log(`steadyframe bench: suite ${suite}`);
      const extra = process.env.STEADYFRAME_BENCH_PARAMS;
      await page.goto(`${base}?suite=${suite}${quick ? '&quick=1' : ''}${extra ? `&${extra}` : ''}`);
      await page.waitForFunction(() => window.__done === true, null, { timeout: (SUITE_TIMEOUT_MINUTES[suite] ?? 8) * 60_000, polling: 250 });
      const { error, data } = await page.evaluate(() => ({ error: window.__error ?? null, data: window.__results ?? null }));
      if (error !== null) {
        console.log(`  suite ${suite} failed: ${error}`);
        errors[suite] = error;
      } else {
        results[suite] = { ...data, loadAverage: { before: loadBefore, after: os.loadavg() } };
      }
      console.log(`steadyframe bench: load average ${os.loadavg().map((x) => x.toFixed(2)).join(', ')} after suite ${suite}`);
      console.log(`  (${((Date.now() - t) / 1000).toFixed(0)} s)`);
      await page.close();
    }
  } finally {
    const version = browser.version();
    await browser.close();
    await server.close();
    info = machine(version);
  }
  const run = {
    date: new Date().toISOString(),
    quick,
    seconds: Math.round((Date.now() - started) / 1000),
    machine: info,
    results,
    errors,
  };
  const written = outDir !== null && merging ? mergeInto(join(outDir, 'benchmarks.json'), run) : run;
  const markdown = renderReport(written);
  console.log(`\n${markdown}`);
  if (outDir !== null) {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'benchmarks.json'), `${JSON.stringify(written, null, 2)}\n`);
    writeFileSync(join(outDir, 'benchmarks.md'), markdown);
    console.log(`steadyframe bench: wrote ${join(outDir, 'benchmarks.json')} and benchmarks.md`);
  } else {
    console.log('steadyframe bench: quick run, nothing written (set STEADYFRAME_BENCH_OUT=dir to keep it)');
  }
  process.exit(Object.keys(errors).length > 0 ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------------------
// The report

/** Each goal: what was measured, met or not, and why. */
function goals(results) {
  const out = [];
  const frame = results.frame?.data;
  const transport = results.transport?.data;
  const motion = results.motion?.data;
  const timing = results.timing?.data;
  const missing = (goal, suite) => out.push({ goal, measured: `not measured (suite ${suite} did not run)`, met: null, why: '' });

  const row3d = (n) => frame?.rows.find((r) => r.schema === '3d' && r.count === n);
  // the kernels as the runtime runs them where the engine allows: shared memory in, plain render memory out
  const wasm = (n) => frame?.extra?.[`3d/${n}/wasm-shared→render`];
  const path =
    'the runtime reads both states from the shared memory and blends them straight into its plain render buffer (WebAssembly SIMD with fused multiply-adds, eight quaternions a turn; the render buffer is a second, unshared wasm memory: multi-memory), so nothing is copied out';
  if (frame === undefined) missing('100k 3D entities: frame cost ≤ 0.4 ms', 'frame');
  else {
    const r = row3d(100_000);
    const w = wasm(100_000);
    out.push({
      goal: '100k 3D entities: frame cost ≤ 0.4 ms',
      measured: r ? `${num(r.ours.median, 3)} ms (floor ${num(r.floor.median, 3)} ms)` : '—',
      met: r ? r.ours.median <= 0.4 : null,
      why: !r
        ? ''
        : (r.ours.median <= 0.4
            ? `${path}; `
            : `${path}, and still takes ${num(r.ours.median, 2)} ms in this run, whose memcpy floor measured ${sp(r.floor, 3)} ms (an absolute budget moves with the machine's memory speed; the ratio to the floor carries across runs); `) +
          `${num(r.ratio.median, 2)}× a plain copy of the bytes it reads` +
          (w ? `; the kernels alone ${num(w.ms.median, 3)} ms (${times(w.ratioToFloor.median)} the floor)` : '') +
          (r.floor.median > 0.4
            ? `. On this machine the floor itself, one memcpy of the bytes a frame reads, takes ${num(r.floor.median, 3)} ms at 100k, so 0.4 ms is under what this machine's memory allows`
            : '') +
          '.',
    });
    const m = row3d(1_000_000);
    const wm = wasm(1_000_000);
    if (m === undefined) missing('1M 3D entities: frame cost ≤ 1.5× the floor', 'frame at 1M (quick run)');
    else
      out.push({
        goal: '1M 3D entities: frame cost ≤ 1.5× the floor',
        measured: `${num(m.ours.median, 2)} ms = ${times(m.ratio.median)} the floor (${num(m.floor.median, 2)} ms)`,
        met: m.ratio.median <= 1.5,
        why:
          (m.ratio.median <= 1.5 ? 'memory-bound at this size: the kernels blend as fast as the bytes arrive' : `${path}, and still takes ${times(m.ratio.median)} the floor`) +
          (wm ? `; the kernels alone: ${num(wm.ms.median, 2)} ms = ${times(wm.ratioToFloor.median)} the floor` : '') +
          '.',
      });
  }
  if (transport === undefined) missing('100k: ≥ 5× less main-thread time than transferable ping-pong', 'transport');
  else {
    const at = (design) => transport.rows.find((r) => r.design === design && r.count === 100_000);
    const cpuOf = (row) => row.summary.mainCpuPerFrame.median;
    const empty = at('empty');
    // a design's own main-thread time a frame: its CPU above the empty loop's, or, where that difference is
    // lost in the noise of the loop's own share, the page's timed work for it (wall time: never less than its CPU)
    const ownOf = (row) => Math.max(cpuOf(row) - (empty ? cpuOf(empty) : Number.NaN), row.summary.workPerFrame.median);
    // our better path for this many entities: the CPU blend (runtime.frame) or the GPU one (runtime.pace + copy)
    const ours = [at('ours'), at('ours-gpu')].filter(Boolean).sort((a, b) => cpuOf(a) - cpuOf(b))[0];
    const transfer = at('transfer');
    if (!ours || !transfer || !empty) missing('100k: ≥ 5× less main-thread time than transferable ping-pong', 'transport at 100k');
    else {
      const net = ratio(ownOf(transfer), ownOf(ours));
      const raw = ratio(cpuOf(transfer), cpuOf(ours));
      out.push({
        goal: '100k: ≥ 5× less main-thread time than transferable ping-pong',
        measured: `each design's own main-thread time a frame (the larger of its CPU above the empty frame loop's ${num(cpuOf(empty), 2)} ms and its timed page work): transfer ${num(ownOf(transfer), 2)} ms / ${ours.design} ${num(ownOf(ours), 2)} ms = ${times(net)}; totals with the loop's own share: ${num(cpuOf(transfer), 2)} / ${num(cpuOf(ours), 2)} ms = ${times(raw)}; receiving alone: ${num(transfer.summary.receivePerDelivery.median, 3)} ms per delivery vs none`,
        met: net >= 5,
        why:
          (net >= 5
            ? `${ours.design === 'ours-gpu' ? 'the GPU path leaves the main thread a pacing call and, once a tick, a copy of the new state for upload' : 'the SIMD blend'}; ping-pong pays its receive and a JS blend every frame.`
            : `what is left is reading each new state once it crosses from the worker's core (${ours.design}: ${num(ours.summary.workPerFrame.median, 2)} ms of page work a frame, mostly copying the new 100k state for upload every other frame), which any design pays.`) +
          ` The empty loop's own ${num(cpuOf(empty), 2)} ms a frame (rAF, the browser's frame work) is the same for every design and bounds the ratio of the totals.`,
      });
    }
  }
  if (motion === undefined) {
    missing('judder p99 ≤ 1% of a tick, on-time ticks', 'motion');
    missing('judder p99 ≤ 5% under an injected stall with a one-tick render delay', 'motion');
  } else {
    const at = (design, stall) => motion.rows.find((r) => r.design === design && r.stall === stall);
    const onTime = at('interpolate', false);
    const stalled = at('delay1', true);
    out.push({
      goal: 'judder p99 ≤ 1% of a tick, on-time ticks (interpolate)',
      measured: onTime ? `p99 ${pct(onTime.summary.p99)}% of a tick` : '—',
      met: onTime ? onTime.summary.p99.median <= 0.01 : null,
      why: onTime
        ? onTime.summary.p99.median <= 0.01
          ? `the rest is lerp's own chord error on the circling bodies (≤ ${num(100 * motion.lerpFloor, 2)}%)`
          : `${num(onTime.summary.overtakenFrames.median, 0)} frames per window were overtaken (see the motion table): their rAF callback ran after the worker had already published past their time, so the slot no longer held the pair around it (served from the states the main thread keeps when it had read that pair, else drawn at the nearest and flagged). Worst frame: ${onTime.windows[0]?.worst ?? ''}`
        : '',
    });
    out.push({
      goal: 'judder p99 ≤ 5% of a tick under a 20 ms stall once a second, one-tick render delay',
      measured: stalled ? `p99 ${pct(stalled.summary.p99)}% of a tick` : '—',
      met: stalled ? stalled.summary.p99.median <= 0.05 : null,
      why: stalled ? (stalled.summary.p99.median <= 0.05 ? 'the delay absorbs the stall: frames blend states that already exist' : `worst frame: ${stalled.windows[0]?.worst ?? ''}`) : '',
    });
  }
  publishGoals(results, out, missing);
  if (timing === undefined) {
    missing('worker tick jitter p99 ≤ 100 µs at 60 Hz, spinning < 10% of a core', 'timing');
    missing('idle or paused simulation < 1% CPU', 'timing');
  } else {
    const jr = (design, hz) => timing.jitter.find((r) => r.design === design && r.tickRate === hz);
    const ours = jr('steadyframe', 60);
    const spin = jr('wait-spin', 60);
    const asyncOnly = jr('wait-async', 60);
    const spinShare = ours?.summary.spinCpu.median;
    const jitterMet = ours ? ours.summary.p99.median <= 100 && !(spinShare >= 10) : null;
    out.push({
      goal: 'worker tick jitter p99 ≤ 100 µs at 60 Hz, the spinning part of the wait < 10% of a core',
      measured: ours
        ? `p99 ${num(ours.summary.p99.median, 0)} µs late (p50 ${num(ours.summary.p50.median, 0)} µs); spinning ${isNum(spinShare) ? `${num(spinShare, 2)}%` : 'not reported'} of a core, worker ${num(ours.summary.workerCpu.median, 2)}% in all`
        : '—',
      met: jitterMet,
      why: !ours
        ? ''
        : jitterMet
          ? `the last stretch before a tick blocks (Atomics.wait), then spins in the same call, ending 50 µs early; the loop plans again with warm caches and runs the tick, which spins to its due instant right before the step; the loop yields to its event loop only after its ticks, and frames its states already cover do not wake it. Same run, the bare blocking-wait-then-spin baseline: p99 ${num(jr('wait-spin', 60)?.summary.p99.median, 0)} µs; a timed Atomics.waitAsync alone: p99 ${num(asyncOnly?.summary.p99.median, 0)} µs`
          : `${ours.summary.p99.median > 100 ? `1% of ticks start later than 100 µs: a timed Atomics.waitAsync alone wakes ${num(asyncOnly?.summary.p50.median, 0)} µs late at the median (bare baseline, p99 ${num(asyncOnly?.summary.p99.median, 0)} µs), and on this shared 2-core machine a spinning worker is itself preempted now and then. ` : ''}` +
            (spin ? `For comparison, a blocking Atomics.wait until ${timing.spinMs} ms early, then a spin: p99 ${num(spin.summary.p99.median, 0)} µs at ${num(spin.summary.workerCpu.median, 1)}% of a core in all.` : ''),
    });
    const idleRows = timing.idle.filter((r) => r.state !== 'running + frames');
    const worst = Math.max(...idleRows.map((r) => r.summary.workerCpu.median));
    out.push({
      goal: 'an idle or paused simulation uses < 1% CPU',
      measured: idleRows.map((r) => `${r.state}: worker ${num(r.summary.workerCpu.median, 3)}%`).join('; '),
      met: worst < 1,
      why: worst < 1 ? 'the worker sleeps without a timeout; only the 250 ms heartbeat (if present) wakes it' : 'see the CPU table',
    });
  }
  out.push(...physicsGoals(results.physics?.data));
  const pixi = results.pixi?.data;
  if (pixi === undefined) {
    missing('PixiJS, 100k and 200k sprites: the GPU path ≥ 3× less main-thread time per frame than plain PixiJS', 'pixi');
    missing('PixiJS: the CPU path (bindParticles) no slower than plain PixiJS at any count', 'pixi');
  } else {
    const at = (design, n) => pixi.rows.find((r) => r.design === design && r.count === n);
    const cpuOf = (r) => r.summary.mainCpuPerFrame.median;
    const workOf = (r) => r.summary.workPerFrame.median;
    const big = [100_000, 200_000].filter((n) => at('plain', n) && at('gpu', n));
    if (big.length === 0) missing('PixiJS, 100k and 200k sprites: the GPU path ≥ 3× less main-thread time per frame than plain PixiJS', 'pixi at 100k/200k (quick run)');
    else {
      const ratios = big.map((n) => ratio(cpuOf(at('plain', n)), cpuOf(at('gpu', n))));
      // the floor: the gpu design drawing the same scene with its simulation paused (no uploads)
      const floorOf = (n) => (at('gpu-still', n) ? cpuOf(at('gpu-still', n)) : Number.NaN);
      const above = (n) => {
        const f = floorOf(n);
        if (!isNum(f)) return '';
        const p = cpuOf(at('plain', n)) - f;
        const g = cpuOf(at('gpu', n)) - f;
        const gpu = at('gpu', n).summary;
        // what the GPU path cannot drop: the floor, and its update (above all, copying the new states into GL buffers)
        const update = gpu.updatePerFrame?.median;
        const bound = isNum(update) ? ` The floor plus the GPU path's own update (${num(update, 2)} ms a frame: ${num(gpu.uploadMBPerFrame.median, 2)} MB of new states uploaded) is ${num(f + update, 2)} ms, where plain ÷ that = ${times(ratio(cpuOf(at('plain', n)), f + update))} puts the ratio with nothing else on the frame; the runtime's catch-up waits (so that no frame is drawn stale) took ${num(gpu.catchUpPerFrame?.median, 2)} ms a frame (median of the windows)` : '';
        return `; floor (gpu-still) ${num(f, 2)} ms, above it ${num(p, 2)} / ${num(g, 2)} ms = ${g > 0 ? times(p / g) : '—'}.${bound}`;
      };
      const floorShare = big.map((n) => ratio(floorOf(n), cpuOf(at('gpu', n)))).filter(isNum);
      out.push({
        goal: `PixiJS, ${big.map(entities).join(' and ')} sprites: the GPU path ≥ 3× less main-thread time per frame than plain PixiJS`,
        measured: big
          .map((n, i) => `${entities(n)}: main CPU ${num(cpuOf(at('plain', n)), 2)} / ${num(cpuOf(at('gpu', n)), 2)} ms = ${times(ratios[i])} (ticker work ${num(workOf(at('plain', n)), 2)} / ${num(workOf(at('gpu', n)), 2)} ms = ${times(ratio(workOf(at('plain', n)), workOf(at('gpu', n))))})${above(n)}`)
          .join('; '),
        met: ratios.every((x) => x >= 3),
        why:
          'the vertex shader blends the two states; the main thread uploads a new tick\'s state straight from the shared memory (both states when several ticks land between frames, as at these frame rates) and sets three uniforms a frame, while plain PixiJS moves every particle and Pixi re-uploads their positions every frame.' +
          (floorShare.length > 0
            ? ` Most of the GPU path's frame is the floor (${floorShare.map((x) => `${Math.round(100 * x)}%`).join(', ')}): the browser's frame work and Pixi's render at the few frames a second SwiftShader draws this scene at, the same under every design, which bounds the ratio of the totals at plain ÷ floor.`
            : ''),
      });
    }
    const counts = [...new Set(pixi.rows.map((r) => r.count))].filter((n) => at('plain', n) && at('cpu', n));
    const cpuRatios = counts.map((n) => ratio(cpuOf(at('cpu', n)), cpuOf(at('plain', n))));
    out.push({
      goal: 'PixiJS: the CPU path (bindParticles) no slower than plain PixiJS at any count',
      measured: counts.map((n, i) => `${entities(n)}: ${num(cpuOf(at('cpu', n)), 2)} / ${num(cpuOf(at('plain', n)), 2)} ms = ${times(cpuRatios[i])} plain's main CPU`).join('; '),
      met: counts.length > 0 ? cpuRatios.every((x) => x <= 1.05) : null,
      why: 'plain PixiJS runs its update loop over every particle, then Pixi\'s upload reads them all; the CPU path blends in SIMD and Pixi\'s upload reads the bound particles\' accessors onto the blend: one pass over the particles instead of two, against runtime.frame\'s fixed cost a frame.',
    });
  }
  out.push(...pixiPortGoals(results['pixi-port']?.data));
  out.push(...renderGoals(results.render?.data));
  out.push(...r3fPortGoals(results['r3f-port']?.data));
  out.push(...babylonGoals(results.babylon?.data));
  out.push(...threeWebgpuGoals(results['three-webgpu']?.data));
  out.push(...eventsGoals(results.events?.data));
  return out;
}

/** The PixiJS port (suite pixi-port): a 50k-sprite scene built from the READMEs holds the display rate. */
function pixiPortGoals(port) {
  const goal = 'a PixiJS scene of 50k moving sprites built from the README alone (the PixiJS particle-container example, ported) holds the display rate with default options';
  if (port === undefined) return [{ goal, measured: 'not measured (suite pixi-port did not run)', met: null, why: '' }];
  const rowsOf = (design) => port.rows.filter((r) => r.design === design);
  const median = (rows, key) => {
    const xs = rows.map((r) => r.summary[key].median).sort((a, b) => a - b);
    return xs.length === 0 ? Number.NaN : xs[Math.floor((xs.length - 1) / 2)];
  };
  const ours = rowsOf('port');
  const plain = rowsOf('original-particles');
  const drawn = Math.min(...ours.map((r) => r.summary.drawnPerRaf.median));
  const rafRatio = ratio(median(ours, 'rafPerSecond'), median(plain, 'rafPerSecond'));
  const late = ours.reduce((a, r) => a + (r.port?.late ?? 0), 0);
  const overtaken = ours.reduce((a, r) => a + (r.port?.overtaken ?? 0), 0);
  const frames = ours.reduce((a, r) => a + (r.port?.frames ?? 0), 0);
  return [
    {
      goal,
      measured: `${entities(port.count)}: the port drew ${num(drawn, 3)} frames per rAF callback (worst row); rAF callbacks ${num(median(ours, 'rafPerSecond'), 1)}/s against ${num(median(plain, 'rafPerSecond'), 1)}/s for the same scene in plain PixiJS on a ParticleContainer (${times(rafRatio)}) and ${num(median(rowsOf('original'), 'rafPerSecond'), 1)}/s for the example as published (Sprites); main CPU per frame ${num(median(ours, 'mainCpuPerFrame'), 2)} ms against ${num(median(plain, 'mainCpuPerFrame'), 2)} ms; ${late} of ${frames} frames late, ${overtaken} overtaken`,
      met: ours.length > 0 && plain.length > 0 ? drawn >= 0.95 && rafRatio >= 0.9 : null,
      why: 'headless Chromium has no display to lock to: its rAF runs when the last frame is done, so the display rate is the rate of animation frames the browser offers, and software GL makes 50k sprites slow whoever moves them. Held = a frame drawn on ≥ 95% of them (the default pacer does not thin them out) and ≥ 0.9× the animation frames plain PixiJS with the same rendering gets. The maggots move in the worker; the page blends them, and Pixi\'s upload reads the bound particles from the blend.',
    },
  ];
}

/** Issue #16's goals, from the publish suite (and the transport suite's whole ticks, when it ran too). */
function publishGoals(results, out, missing) {
  const publish = results.publish?.data;
  const transport = results.transport?.data;
  const floorGoal = 'publish ≤ 2× one memcpy of the live state, at 1k, 100k and 1M live entities';
  const transferGoal = '1M live entities: worker CPU per tick no more than the transfer design\'s';
  const capacityGoal = 'capacity 100k with 1k live: publish within 2× of capacity 1k with 1k live';
  if (publish === undefined) {
    missing(floorGoal, 'publish');
    missing(transferGoal, 'publish');
    missing(capacityGoal, 'publish');
    return;
  }
  const at = (capacity, live) => publish.rows.find((r) => r.capacity === capacity && r.live === live);
  const full = [1_000, 100_000, 1_000_000].map((n) => at(n, n)).filter(Boolean);
  const shared = (r) => r.ratioToSharedFloor?.ours?.median;
  const plain = (r) => r.ratioToFloor.ours.median;
  const worst = Math.max(...full.map(shared));
  out.push({
    goal: floorGoal,
    measured: full
      .map((r) => `${entities(r.live)}: ${num(r.ms.ours.median, r.live >= 100_000 ? 3 : 4)} ms = ${times(shared(r))} one memcpy of the live state within shared memory (${num(r.ms['floor-shared'].median, r.live >= 100_000 ? 3 : 4)} ms), ${times(plain(r))} one in plain memory`)
      .join('; '),
    met: full.length < 3 ? null : worst <= 2,
    why:
      (worst > 2 ? `over 2× at ${full.filter((r) => shared(r) > 2).map((r) => entities(r.live)).join(', ')}: ` : '') +
      `a publish copies the live state twice by construction (the back slot's previous state from the front's current, its current state from the world: the card's layout keeps both states in each slot), so 2× one copy is its floor; both copies stay within the shared buffer (the world lives in a region of its own after the four slot blocks), by WebAssembly memory.copy over the buffer's WebAssembly.Memory (${full[0]?.oursCopy ?? '?'} here): no allocation, and no per-field views` +
      (full.length < 3 ? ' (1M not measured in a quick run)' : '') +
      `. The floor is a TypedArray.set of the live bytes from and to shared memory, where a publish reads and writes; in plain memory the same copy is cheaper (V8 copies shared memory word by word)` +
      '.',
  });
  const big = at(1_000_000, 1_000_000);
  const t = transport?.rows.filter((r) => r.count === 1_000_000);
  const tick = (design) => t?.find((r) => r.design === design)?.summary.workerCpuPerTick.median;
  if (big === undefined) missing(transferGoal, 'publish at 1M (quick run)');
  else
    out.push({
      goal: transferGoal,
      measured:
        `delivering a tick: publish ${num(big.ms.ours.median, 2)} ms vs the transfer design's copy + post ${num(big.ms.transfer.median, 2)} ms = ${times(big.ratioToTransfer.median)}` +
        (tick('ours') !== undefined && tick('transfer') !== undefined
          ? `; whole ticks (transport suite: step, the NaN scan, publish or copy + post, the loop): ours ${num(tick('ours'), 2)} ms, ours-gpu ${num(tick('ours-gpu'), 2)} ms, transfer ${num(tick('transfer'), 2)} ms`
          : ''),
      met: big.ratioToTransfer.median <= 1,
      why:
        big.ratioToTransfer.median <= 1
          ? 'both designs are memory-bound at this size; the publish moves its two copies at memcpy speed'
          : `each state is written twice by the card's layout (as the back slot's current state, and a tick later as the other slot's previous state), 64 MB a tick at 1M; the transfer design writes it once (28 MB, no generations) and hands the buffer over. The publish is at ${times(shared(big))} one memcpy of the live state, i.e. at its floor of two; only a layout that shares one block between the previous and current states (roles flipped, not copied) would halve it, and the card keeps previous_state[2] and current_state[2]`,
    });
  const sparse = at(100_000, 1_000);
  const dense = at(1_000, 1_000);
  if (sparse === undefined || dense === undefined) missing(capacityGoal, 'publish');
  else {
    const r = ratio(sparse.ms.ours.median, dense.ms.ours.median);
    out.push({
      goal: capacityGoal,
      measured: `${num(1000 * sparse.ms.ours.median, 2)} µs vs ${num(1000 * dense.ms.ours.median, 2)} µs = ${times(r)} (whole blocks, as before: ${num(1000 * sparse.ms['whole-blocks'].median, 1)} µs vs ${num(1000 * dense.ms['whole-blocks'].median, 2)} µs)`,
      met: r <= 2,
      why: `only the live entities are copied: at capacity 100k the three runs (position, rotation, generations) lie far apart and go as three copies each, at capacity 1k as one span (runs closer than ${num(4 * 1024 / 1024, 0)} KB are merged)`,
    });
  }
}

const PUBLISH_NAMES = {
  ours: 'ours: live entities, memory.copy (the runtime)',
  'whole-blocks': 'whole blocks (the publish before #16)',
  'subarray-set': 'live entities, subarray + set per run',
  'wasm-memory-copy': 'live entities, memory.copy (bare)',
  'copy-within': 'live entities, copyWithin (no WebAssembly.Memory)',
  'floor-shared': 'floor: one memcpy of the live state, shared memory',
  floor: 'one memcpy of the live state, plain memory',
  transfer: 'transfer design: copy into a pooled buffer + post',
};

function publishSection(publish) {
  if (publish === undefined) return '';
  const rows = [];
  for (const r of publish.rows) {
    for (const [method, name] of Object.entries(PUBLISH_NAMES)) {
      const ms = r.ms[method];
      if (ms === undefined) continue;
      rows.push([
        `${entities(r.capacity)} / ${entities(r.live)}`,
        name,
        sp(ms, r.live >= 100_000 ? 3 : 4),
        sp(r.ratioToSharedFloor?.[method], 2),
        sp(r.ratioToFloor[method], 2),
      ]);
    }
  }
  return `## 6. Publish

The worker's cost of publishing one tick (issue #16), schema3d (position xyz, rotation xyzw, and the per-entity
generation: 32 bytes an entity), timed in a worker (\`apps/bench/src/publish.worker.ts\`) with no reader holding the
lock: ms per call, ${publish.rows[0]?.ms.ours.n ?? '?'} samples of about 4 ms of calls each; every method in every round, the
order rotating from round to round. **ours** is \`SlotWriter.publish\` as the runtime's worker runs it (the world in the
buffer's world region, the buffer a shared WebAssembly.Memory, as the runtime makes it where the SIMD kernels run):
the back slot's previous state gets the front's current one for entities 0 .. PREV_COUNT − 1, its current state the
world's 0 .. COUNT − 1, per field run and for the generations, then the flip under the lock. The other ways of copying
the same live ranges, and the publish as it was (both whole blocks), pay the same flip. **Floor**: one
TypedArray.set of the live state's bytes (32 per entity) within shared memory; beside it the same copy in plain memory.
**Transfer**: the ping-pong design's delivery of a tick (message.worker.ts): position and rotation copied into a
pooled ArrayBuffer and posted, transferred (the page sends it back). Ratios are per round, to the same round's floor.

${table(['capacity / live', 'method', 'ms', '/ floor (shared)', '/ memcpy (plain)'], rows)}
`;
}

/** Issue #13's goals: Rapier in the steadyframe worker (b) against Rapier on the main thread (a). */
function physicsGoals(physics) {
  const goals = {
    cost: 'Rapier, 10k bodies: (b) in the worker costs the main thread ≥ 5× less per frame than (a) on it',
    rate: 'Rapier: (b) holds the display rate where (a) cannot',
    start: 'Rapier, 1k bodies: (b) starts (page load to the first frame with every body) in < 1 s',
  };
  if (physics === undefined) return Object.values(goals).map((goal) => ({ goal, measured: 'not measured (suite physics did not run)', met: null, why: '' }));
  const at = (design, n) => physics.rows.find((r) => r.design === design && r.bodies === n);
  const out = [];
  const a10 = at('main', 10_000);
  const b10 = at('worker', 10_000);
  if (!a10 || !b10) out.push({ goal: goals.cost, measured: 'not measured at 10k', met: null, why: '' });
  else {
    const r = ratio(a10.summary.mainCpuPerFrame.median, b10.summary.mainCpuPerFrame.median);
    out.push({
      goal: goals.cost,
      measured: `main-thread CPU per frame: (a) ${num(a10.summary.mainCpuPerFrame.median, 2)} ms / (b) ${num(b10.summary.mainCpuPerFrame.median, 2)} ms = ${times(r, 1)}; the page's own timed work: ${num(a10.summary.workPerFrame.median, 2)} / ${num(b10.summary.workPerFrame.median, 3)} ms`,
      met: r >= 5,
      why:
        `(a) runs every Rapier step that falls due in the frame, on the main thread, then blends every body in JS; (b) leaves the main thread one acquire and the SIMD blend of the published pair (what is left of its share is the browser's own frame work)` +
        (r >= 5 ? '.' : `, and still measured only ${times(r, 1)}.`),
    });
  }
  // the display rate: the best frame rate any run reached (headless Chromium's rAF runs at its own steady rate)
  const display = Math.max(...physics.rows.map((r) => r.summary.fps.max).filter(isNum));
  const holds = (row) => row.summary.fps.median >= 0.9 * display;
  const sizes = [...new Set(physics.rows.map((r) => r.bodies))];
  const perSize = sizes.map((n) => ({ n, a: at('main', n), b: at('worker', n) })).filter((x) => x.a && x.b);
  const aFails = perSize.filter((x) => !holds(x.a));
  const bHolds = perSize.every((x) => holds(x.b));
  out.push({
    goal: goals.rate,
    measured: `${num(display, 0)} fps at best; ${perSize.map((x) => `${entities(x.n)}: (a) ${num(x.a.summary.fps.median, 0)}, (b) ${num(x.b.summary.fps.median, 0)} fps`).join('; ')}`,
    met: perSize.length === 0 ? null : bHolds && aFails.length > 0,
    why:
      perSize.length === 0
        ? ''
        : `(b) ${bHolds ? 'keeps ≥ 90% of it at every size' : 'falls under 90% of it at some size'}; (a) ${aFails.length > 0 ? `falls under it at ${aFails.map((x) => entities(x.n)).join(', ')}, where a frame must wait for the steps due` : 'keeps up at every size measured, so there is no size where it cannot'}. Whether the physics itself keeps up is the "sim speed" column: a worker that cannot step 60 Hz slows the simulation but not the frames.`,
  });
  const b1 = at('worker', 1000);
  out.push({
    goal: goals.start,
    measured: b1 ? `(b) ${sp(b1.summary.startMs, 0)} ms; (a) ${sp(at('main', 1000)?.summary.startMs, 0)} ms` : 'not measured at 1k',
    met: b1 ? b1.summary.startMs.median < 1000 : null,
    why: b1
      ? 'both load and initialise Rapier\'s compat build (WebAssembly inlined as base64), build the scene, and draw; (b) also starts the worker, attaches the shared buffer and aligns the clocks, and holds the attach until RAPIER.init() resolves.'
      : '',
  });
  return out;
}

function physicsSection(physics) {
  if (physics === undefined) return '';
  const rows = physics.rows.map((r) => [
    r.design === 'main' ? '(a) main thread, rAF + accumulator' : '(b) steadyframe worker',
    entities(r.bodies),
    sp(r.summary.startMs, 0),
    sp(r.summary.fps, 1),
    sp(r.summary.mainCpuPerFrame, 2),
    sp(r.summary.workPerFrame, 3),
    sp(r.summary.simSpeed, 2),
    sp(r.summary.stepMs, 2),
    r.design === 'main' ? '—' : pct(r.summary.lateFrames, 1),
    pct(r.summary.judderP50, 1),
    pct(r.summary.judderP99, 1),
  ]);
  return `## 7. Rapier: main thread vs the steadyframe worker

The same scene and Rapier version (\`@dimforge/rapier3d-compat\`) both ways (\`apps/bench/src/shared/physics-scene.ts\`):
a fixed floor, n boxes and spheres in layers above it falling into a pile, and a probe body in free fall beside
it (it never touches anything: its path is known in closed form). **(a)**: Rapier stepped on the main thread in
requestAnimationFrame, frame delta clamped to 0.5 s, a fixed-step accumulator at ${physics.tickRate} Hz and every body's previous
and current pose kept per step, blended (lerp + nlerp) each frame at alpha = accumulator / dt: how
@react-three/rapier runs it. **(b)**: Rapier in the steadyframe worker through \`@steadyframe/rapier\`, the page
calling \`runtime.frame(ts)\` every animation frame. Neither draws with WebGL: both end each frame with the
interpolated arrays a renderer would upload. Each run is a fresh page (an iframe), so **start** is from that page's
navigation start to the end of the first frame with every body (after one discarded run of each design, so every
measured run finds Rapier's chunks in the browser's caches, as a returning visitor would). Then after a warm-up, over a window: **main CPU /
frame** (schedstat of the renderer's main thread per animation frame), **page work / frame** (the page's timed
frame callback), **fps** (frames drawn per second), **sim speed** (simulated seconds per wall second: 1 keeps up),
**step ms** (one Rapier step: (a) timed around each, pose reads included; (b) the worker's last step, its copy
pass included) and the probe's **judder**: each frame's drawn height says which moment of the fall it shows (the
inverse of the closed-form path); a straight line fitted to those moments against the frames' timestamps is the
smooth playback a perfect design would give at the same speed; the judder is each frame's distance from it, in
% of the probe's motion in one tick. Slow motion, played evenly, is not judder (it shows as sim speed < 1);
hitches, doubled or skipped ticks and late frames are. **Late frames** ((b) only): frames drawn past the newest
state, which hold the picture until the worker's next tick (\`stats().sampling.late\`); (a) has none by
construction, its simulated time being whatever its frames reach. Median (min–max) over runs.

${table(['design', 'bodies', 'start ms', 'fps', 'main CPU / frame ms', 'page work / frame ms', 'sim speed', 'step ms', 'late frames %', 'judder p50 %', 'judder p99 %'], rows)}
`;
}

function frameSection(frame) {
  if (frame === undefined) return '';
  const rows = frame.rows.map((r) => [
    r.schema.toUpperCase(),
    entities(r.count),
    num(r.bytesRead / 1e6, 1),
    sp(r.ours, 4),
    sp(r.floor, 4),
    sp(r.ratio, 2),
    sp(r.copyOut, 4),
  ]);
  let text = `## 1. Frame cost

Main-thread ms for one frame's acquire + interpolate into the render buffer: \`runtime.sample(t)\` at alpha 0.5 on the
real runtime (worker attached, two ticks of real motion in the front slot, held still so every call does the same
work). **Floor**: acquire, a plain copy (TypedArray.set, i.e. memcpy) of the same bytes the frame reads (the
previous and current states' live field runs) into two plain buffers, release. **Copy out**: the current state's
bytes alone into the render buffer. 2D = position xy (lerp) + angle (short-arc); 3D = position xyz (lerp) +
rotation quaternion (nlerp): 7 float32 per entity. Each sample times enough calls for about 4 ms; ours and the
floor alternate; ${frame.rows[0]?.ours.n ?? '?'} samples per row.

${table(['schema', 'entities', 'MB read', 'ours ms', 'floor ms', 'ours / floor', 'copy out ms'], rows)}
`;
  const extra = Object.entries(frame.extra ?? {});
  if (extra.length > 0) {
    text += `\nThe kernels alone on the same data: **js-plain**, the runtime's JS kernels (interpolateField) on plain
(unshared) copies of the two states; **wasm**, the WebAssembly SIMD kernels
(\`packages/runtime/src/core/simd-kernel.ts\`, hand-assembled: lerp four lanes at a time, nlerp eight quaternions a
turn as two interleaved groups of four; relaxed SIMD's fused multiply-add where the engine has it) in place in an
unshared wasm memory; **wasm-shared**, the same in a shared memory (where the runtime's states live);
**wasm+copy-out**, in place, then the result copied to a plain buffer (what the runtime does on an engine without
multi-memory); **wasm-shared→render**, reading the shared memory and writing a second, unshared memory (multi-memory:
what the runtime does here, its render buffer being that memory); **no FMA**, the same without relaxed SIMD;
**ours, render delay 1**, the runtime's frame with a one-tick render delay, blended from its history of states. Ratios
to the same row's floor.\n\n${table(
      ['kernel', 'ms', '/ floor'],
      extra.map(([name, v]) => [name, sp(v.ms, 4), sp(v.ratioToFloor, 2)]),
    )}\n`;
  }
  return text;
}

function transportSection(transport) {
  if (transport === undefined) return '';
  const sizes = [...new Set(transport.rows.map((r) => r.count))];
  let text = `## 2. Transport

The same 3D simulation at ${transport.tickRate} ticks/s, drawn every animation frame, delivered three ways, each with the
interpolation it needs: **ours** (the shared double buffer; \`runtime.frame(ts)\`, the blend on the CPU), **ours-gpu**
(the same buffer; \`runtime.pace(ts)\`, and when a new tick is out, a copy of its state for upload, as
@steadyframe/three's GPU path does: one tick past the last upload swaps the staged pair and copies only the new
state; the shader blends), **clone** (postMessage, structured
clone of the arrays every tick), **transfer** (transferable ArrayBuffers, ping-pong with a pool of 3, as use-cannon
does). The message designs draw one tick in the past between the last two states received (snapshot interpolation);
ours draws the frame's own time. No design uploads to a GPU here (a CPU blend would upload its render buffer every
frame, the GPU path the new state once a tick). Page work is wall time: on this 2-vCPU machine it includes the main
thread being preempted when it wakes the worker. Per 1 s window, repeated:

- **main CPU / frame**: CPU time of the page's renderer main thread from \`/proc/<pid>/task/<tid>/schedstat\`, per
  frame: everything it did, the browser's own frame work, GC and deserialisation included.
- **above the empty loop**: main CPU / frame minus that of **empty**, the same page running the same
  requestAnimationFrame loop with no worker and no work, measured in the same run: what the design itself costs
  the main thread.
- **page work / frame**: the page's own timing of its per-frame work: the message handlers since the last frame (where
  \`event.data\` is first read, which is when a clone is deserialised) plus the frame's interpolation.
- **receive / delivery**: the message handler alone, per message.
- **worker CPU / tick**: CPU of the worker thread per tick (step, copy or serialise, post, the loop).
- **latency**: from the end of a tick's step to the end of the first frame that drew it (ours runs ahead of the
  clock, so its ticks are made a frame before they are due: its latency is large by design, and its picture is not
  behind: see "shows").
- **stale frames**: frames drawn without the newest tick whose step had ended when the frame began.
- **shows**: how far behind the frame's time the drawn world is, by design.

`;
  for (const n of sizes) {
    const rows = transport.rows.filter((r) => r.count === n);
    const ours = rows.find((r) => r.design === 'ours');
    const empty = rows.find((r) => r.design === 'empty');
    const above = (r) => r.summary.mainCpuPerFrame.median - (empty?.summary.mainCpuPerFrame.median ?? Number.NaN);
    const rel = (r, key) => (r.design === 'ours' ? '1' : times(ratio(r.summary[key].median, ours?.summary[key].median), 1));
    const design = (r) => r.design !== 'empty';
    text += `### ${entities(n)} entities\n\n${table(
      ['design', 'main CPU / frame ms', 'above the empty loop ms', '× ours', 'page work / frame ms', '× ours', 'receive / delivery ms', 'worker CPU / tick ms', '× ours', 'latency p50 ms', 'latency p99 ms', 'stale frames %', 'fps', 'shows'],
      rows.map((r) => [
        r.design === 'empty' ? 'empty (the frame loop alone)' : r.design,
        sp(r.summary.mainCpuPerFrame, 3),
        design(r) ? num(above(r), 3) : '0',
        design(r) ? (r.design === 'ours' ? '1' : times(ratio(above(r), ours ? above(ours) : Number.NaN), 1)) : '—',
        sp(r.summary.workPerFrame, 3),
        design(r) ? rel(r, 'workPerFrame') : '—',
        r.design === 'clone' || r.design === 'transfer' ? sp(r.summary.receivePerDelivery, 3) : 'none',
        design(r) ? sp(r.summary.workerCpuPerTick, 3) : '—',
        design(r) ? rel(r, 'workerCpuPerTick') : '—',
        design(r) ? sp(r.summary.latencyP50, 1) : '—',
        design(r) ? sp(r.summary.latencyP99, 1) : '—',
        design(r) ? pct(r.summary.staleFrames, 1) : '—',
        num(r.summary.fps.median, 0),
        !design(r) ? '—' : r.design === 'ours' || r.design === 'ours-gpu' ? 'the frame time' : `1 tick (${num(1000 / transport.tickRate, 1)} ms) behind`,
      ]),
    )}\n\n`;
  }
  return text;
}

const MOTION_NAMES = {
  latest: 'steadyframe, latest only (no interpolation)',
  interpolate: 'steadyframe, interpolate',
  extrapolate: 'steadyframe, extrapolate',
  delay1: 'steadyframe, interpolate, 1-tick render delay',
  mainloop: 'MainLoop.js, single thread',
};

function motionSection(motion) {
  if (motion === undefined) return '';
  const base = (stall) => motion.rows.find((r) => r.design === 'mainloop' && r.stall === stall);
  const rows = motion.rows.map((r) => [
    MOTION_NAMES[r.design] ?? r.design,
    r.stall ? `${motion.stallMs} ms once a second` : 'on time',
    pct(r.summary.p50, 2),
    pct(r.summary.p99, 2),
    times(ratio(r.summary.p99.median, base(r.stall)?.summary.p99.median), 1),
    pct(r.summary.max, 1),
    sp(r.summary.lateFrames, 0),
    sp(r.summary.overtakenFrames, 0),
    sp(r.summary.droppedFrames, 0),
    sp(r.summary.longestFrame, 1),
    num(r.summary.frames.median, 0),
    num(r.lagMs, 1),
  ]);
  return `## 3. Motion quality

${motion.bodies} bodies with analytic motion (half straight, half circling at ${num(100 * 0.05, 0)}% of a radian per tick), every body
moving 1 unit per tick; ${motion.tickRate} ticks/s, frames every ${num(motion.period, 2)} ms. For each drawn frame and body: the
distance between the drawn position and the true position at the time the frame stands for (its rAF timestamp minus
the design's fixed delay), **in % of one tick's motion**. Simulated time is tied to the page clock once, after a 1 s
warm-up, and never re-fitted: a hitch, a drift or a re-pinned clock shows as error. The stall: the worker's step (for
MainLoop.js, its update, on the main thread) busy-waits ${motion.stallMs} ms every ${motion.stallEveryTicks} ticks. Lerp's own chord
error on the circling bodies is at most ${num(100 * motion.lerpFloor, 2)}% (the floor of any interpolating design). "× MainLoop"
is the p99 ratio to MainLoop.js under the same condition. Late frames: frames past the newest state (steadyframe
counts them). Overtaken: frames whose time was before the front slot's previous state (\`stats().sampling.overtaken\`
\+ \`recovered\`): the worker had already published past it when the frame sampled (its rAF callback ran late), so the
slot no longer held the pair around the frame's time; the runtime blends it from the states it keeps where it read
that pair, else draws the nearest it has and flags the frame. Dropped: rAF intervals over 1.5 periods; longest: the longest rAF interval (headless Chromium does not
snap frames to a vsync, so a busy main thread shows as a long interval rather than a dropped frame). Per window of
frames; median (min–max) over windows. "Shows": how far behind the frame's time the design draws, by construction
(MainLoop.js draws between its last two updates: one tick behind).

${table(['design', 'ticks', 'p50 %', 'p99 %', 'p99 × MainLoop', 'max %', 'late frames', 'overtaken frames', 'dropped frames', 'longest frame interval ms', 'frames / window', 'shows, ms behind'], rows)}
`;
}

const TIMING_NAMES = {
  steadyframe: 'steadyframe (its own loop and wait)',
  timeout: 'setTimeout loop',
  'wait-async': 'bare Atomics.waitAsync, timeout',
  'wait-spin': 'Atomics.wait, then spin the last 1 ms',
};

function timingSection(timing) {
  if (timing === undefined) return '';
  const ours = (hz) => timing.jitter.find((r) => r.design === 'steadyframe' && r.tickRate === hz);
  const rows = timing.jitter.map((r) => [
    TIMING_NAMES[r.design] ?? r.design,
    String(r.tickRate),
    sp(r.summary.p50, 0),
    sp(r.summary.p99, 0),
    times(ratio(r.summary.p99.median, ours(r.tickRate)?.summary.p99.median), 2),
    sp(r.summary.max, 0),
    sp(r.summary.workerCpu, 2),
    r.design === 'steadyframe' ? sp(r.summary.spinCpu, 2) : r.design === 'wait-spin' ? 'most of it' : '0',
    num(r.summary.ticks.median, 0),
  ]);
  const idle = timing.idle.map((r) => [r.state, sp(r.summary.workerCpu, 3), sp(r.summary.mainCpu, 2), num(r.summary.publishes.median, 0)]);
  return `## 4. Tick timing

**Jitter**: tick start minus its target, in µs, ${timing.count} 3D entities of work per tick, no frame loop (the worker paces
itself; with frames, the page's doorbell wakes it instead). steadyframe's target for tick k + 1 is the time tick k
stands for: it sleeps until the clock reaches its newest state and then makes the next one. The baselines (same
work, pacer.worker.ts) target t0 + k·T. **Worker CPU**: the worker thread's CPU time over the run (schedstat),
as % of one core; "of which spinning" for steadyframe is its own \`stats().worker.spunMs\` over the same windows.

${table(['pacer', 'Hz', 'late p50 µs', 'late p99 µs', 'p99 × steadyframe', 'late max µs', 'worker CPU %', 'of which spinning %', 'ticks / window'], rows)}

**CPU of a simulation at rest** (${timing.count} entities, 60 Hz; % of one core from /proc schedstat): idle = attached,
never started; paused = started, then \`pause()\`; "+ frames" = the page calls \`runtime.frame\` every animation
frame meanwhile (which rings the worker's doorbell); running for comparison.

${table(['state', 'worker CPU %', 'page main thread CPU %', 'publishes / window'], idle)}
`;
}

function lockSection(lock) {
  if (lock === undefined) return '';
  const rows = lock.rows.map((r) => [
    String(r.tickRate),
    sp(r.summary.fps, 0),
    sp(r.summary.spinsPerAcquire, 3),
    String(r.maxSpins),
    sp(r.summary.misses, 0),
    sp(r.summary.publishesPerSecond, 0),
    sp(r.summary.flipWaitsPer1000, 1),
    sp(r.summary.flipWaitMsPerPublish, 4),
    sp(r.summary.frameMs, 3),
    String(r.overloads),
  ]);
  return `## 5. Lock

${entities(lock.count)} 3D entities, a frame loop calling \`runtime.frame\` every animation frame, the worker asked for 60 and
1,000 ticks/s (at 1,000 it publishes as fast as step + publish allow, so the lock is contended most of the time).
From \`runtime.stats()\` per window: the page's failed compareExchange spins per acquire and misses (frames that
gave up and repeated the last state), the worker's flips that slept on the lock (per 1,000 publishes) and ms slept
per publish.

${table(['ticks/s asked', 'frames / s', 'spins / acquire', 'max spins', 'misses / window', 'publishes / s', 'flip waits / 1000 publishes', 'flip wait ms / publish', 'frame ms', 'overloads'], rows)}
`;
}

/** Issue #12's goal, from the render suite: the render worker against main-thread jank. */
function renderGoals(render) {
  const goal = 'render worker: a 30 ms main-thread busy loop every 500 ms changes nothing measurable (longest frame interval ≤ 1.5 refresh periods, judder p99 ≤ 1% of a tick), while the main-thread renderer shows the stall';
  if (render === undefined) return [{ goal, measured: 'not measured (suite render did not run)', met: null, why: '' }];
  const at = (drawIn, jank) => render.rows.find((r) => r.drawIn === drawIn && r.jank === jank);
  const wJ = at('worker', true);
  const mJ = at('main', true);
  const w0 = at('worker', false);
  if (!wJ || !mJ || !w0) return [{ goal, measured: 'some runs missing', met: null, why: '' }];
  const limit = 1.5 * render.period;
  const fell = [wJ, mJ].find((r) => r.renderer !== r.drawIn);
  const workerOk = wJ.summary.longestFrame.max <= limit && wJ.summary.p99.max <= 0.01;
  const mainStalls = mJ.summary.longestFrame.median > limit;
  const describe = (r) =>
    `longest ${num(r.summary.longestFrame.max, 1)} ms, ${num(r.summary.droppedFrames.median, 0)} frames over 1.5 periods, judder p99 ${num(100 * r.summary.p99.max, 2)}%`;
  return [
    {
      goal,
      measured: `refresh ${num(render.period, 1)} ms (limit ${num(limit, 1)} ms); with jank: render worker ${describe(wJ)}; main thread ${describe(mJ)}; render worker without jank ${describe(w0)}`,
      met: fell ? false : workerOk && mainStalls,
      why: fell
        ? `the ${fell.drawIn} run drew on the ${fell.renderer} thread (${fell.fallback}): nothing was compared`
        : `${workerOk ? 'the render worker paces and draws on its own requestAnimationFrame, reading the shared buffer; the page\'s busy loop delays only control calls' : 'the render worker\'s frames were still late or uneven in some window (worst values given: on a shared 2-vCPU machine the busy loop and the render worker compete for the same cores)'}; ${mainStalls ? 'the main-thread renderer loses the frames the busy loop covers' : 'the main-thread renderer did not show the stall in this run'}.`,
    },
  ];
}

function renderSection(render) {
  if (render === undefined) return '';
  const rows = render.rows.map((r) => [
    `${r.drawIn === 'worker' ? 'render worker' : 'main thread'}${r.renderer === r.drawIn ? '' : ` (fell back: ${r.fallback})`}`,
    r.jank ? `${render.jankMs} ms every ${render.jankEveryMs} ms` : 'none',
    sp(r.summary.frames, 0),
    sp(r.summary.longestFrame, 1),
    sp(r.summary.droppedFrames, 0),
    pct(r.summary.p99, 2),
    pct(r.summary.max, 2),
  ]);
  return `## 9. The render worker against main-thread jank

The same scene (the motion suite's ${render.bodies} bodies at ${render.tickRate} ticks/s, interpolated, squares on a 2D canvas;
\`apps/bench/src/shared/jank-scene.ts\`) drawn by \`createRenderWorkerRuntime\` from the main thread (\`renderIn: 'main'\`,
the same setup as the fallback) and from the render worker (an OffscreenCanvas on its own requestAnimationFrame),
each without and with a ${render.jankMs} ms busy loop on the page every ${render.jankEveryMs} ms. Per window: frames drawn, the
**longest frame interval** and **frames over 1.5 refresh periods** (refresh ${num(render.period, 1)} ms, the median rAF gap),
both between the draws' own clock readings (headless Chromium's rAF timestamps advance one period per callback even
across a stall, so they would hide it), and **judder**: the drawn position's error against the true position at the frame's time, in % of a tick of motion
(the motion suite's measure). Median (min–max) over windows.

${table(['drawn on', 'page jank', 'frames', 'longest frame ms', 'frames > 1.5 periods', 'judder p99 %', 'judder max %'], rows)}
`;
}

function pixiSection(pixi) {
  if (pixi === undefined) return '';
  const sizes = [...new Set(pixi.rows.map((r) => r.count))];
  let text = `## 8. PixiJS

The same scene of moving, turning sprites (2×2 px, ${pixi.tickRate} ticks/s where a worker simulates, a 640×480 canvas)
drawn every animation frame three ways: **plain** (PixiJS alone: a ticker listener moves every particle of a
ParticleContainer by its velocity on the main thread, then \`app.render\`), **cpu** (steadyframe's worker simulates;
\`attachToTicker\` + \`bindParticles\`: \`runtime.frame\` blends into its render buffer, then \`app.render\`, whose
upload reads the bound particles' x, y and rotation from there through their accessors), **gpu** (\`attachToTicker\` + \`createInterpolatedSprites\`: \`runtime.pace\`, a new tick's state uploaded
straight from the shared memory once a tick, three uniforms, \`app.render\`; the vertex shader blends), and a floor,
**gpu-still** (the gpu design with its simulation paused: the same draw, no upload; what the browser and Pixi cost a
frame at that frame rate). Every design renders every frame (\`pacing: { adaptive: false }\`). In software GL
(SwiftShader) every design is bound by the GPU process from about 100k sprites on, at a few frames a second, so a
frame's main CPU there carries the browser's own frame work at that rate (the commit reads the WebGL canvas back
for the software compositor): the floor. Each design runs twice per size, in mirrored order (plain, cpu, gpu,
gpu-still, then back), so that a machine that speeds up or slows down over a size's minutes weighs on every design
alike; its windows are pooled. Per 1 s window: **main CPU / frame**, the renderer main thread's CPU from
\`/proc\` per frame (everything it did: the browser's frame work, Pixi, GC); **ticker work / frame**, the page's own
timing of the ticker's listeners (update and render); **first update**, the first frame's update (the CPU path
makes every particle then). Under each table, the GPU path's frame taken apart: its **update** (the page's timing
of \`update()\`: reading the pair, uploading new states, three uniforms) and the MB it uploaded a frame, and the
runtime's **catch-up waits** a frame (\`stats().frameClock.waitMs\`: spins for the worker's states when a frame
comes later than announced; the runtime's guarantee that no frame is drawn stale).

`;
  for (const n of sizes) {
    const rows = pixi.rows.filter((r) => r.count === n);
    const plain = rows.find((r) => r.design === 'plain');
    const rel = (r, key) => (r.design === 'plain' ? '1' : times(ratio(plain?.summary[key].median, r.summary[key].median), 2));
    text += `### ${entities(n)} sprites\n\n${table(
      ['design', 'main CPU / frame ms', 'plain ÷ this', 'ticker work / frame ms', 'plain ÷ this', 'fps', 'first update ms'],
      rows.map((r) => [r.design, sp(r.summary.mainCpuPerFrame, 3), rel(r, 'mainCpuPerFrame'), sp(r.summary.workPerFrame, 3), rel(r, 'workPerFrame'), sp(r.summary.fps, 0), num(r.firstUpdateMs, 1)]),
    )}\n\n`;
    const gpu = rows.find((r) => r.design === 'gpu')?.summary;
    if (gpu?.updatePerFrame !== undefined) {
      text += `gpu, a frame: update ${sp(gpu.updatePerFrame, 3)} ms for ${sp(gpu.uploadMBPerFrame, 2)} MB uploaded; catch-up waits ${gpu.catchUpPerFrame ? sp(gpu.catchUpPerFrame, 3) : '—'} ms.\n\n`;
    }
  }
  return text;
}

function pixiChurnSection(churn) {
  if (churn === undefined) return '';
  let text = `## 11. PixiJS, a count that changes

Section 8's scene with a live count that changes every step by up to ${num(100 * churn.churnShare, 0)}% of the sprites (those at the end
despawn and spawn again: a game's bullets, sparks, enemies coming and going), three ways: **plain** (PixiJS alone:
the game changes the container's list at the tick rate, as the worker does, and calls \`container.update()\`, which
is what Pixi's \`addParticle\` and \`removeParticles\` do, then moves the live particles each frame), **cpu** (\`bindParticles\`, which uploads
Pixi's static data only when the count passes the longest list drawn), and **cpu-reupload** (the same, with
\`container.update()\` on every count change, as \`bindParticles\` did before: the baseline for that change). Each
design twice, mirrored, windows pooled; columns as in section 8.

`;
  for (const n of [...new Set(churn.rows.map((r) => r.count))]) {
    const rows = churn.rows.filter((r) => r.count === n);
    const plain = rows.find((r) => r.design === 'plain');
    const rel = (r, key) => (r.design === 'plain' ? '1' : times(ratio(plain?.summary[key].median, r.summary[key].median), 2));
    text += `### ${entities(n)} sprites\n\n${table(
      ['design', 'main CPU / frame ms', 'plain ÷ this', 'ticker work / frame ms', 'plain ÷ this', 'fps'],
      rows.map((r) => [r.design, sp(r.summary.mainCpuPerFrame, 3), rel(r, 'mainCpuPerFrame'), sp(r.summary.workPerFrame, 3), rel(r, 'workPerFrame'), sp(r.summary.fps, 0)]),
    )}\n\n`;
    const cpu = rows.find((r) => r.design === 'cpu')?.summary;
    const again = rows.find((r) => r.design === 'cpu-reupload')?.summary;
    if (cpu !== undefined && again !== undefined) {
      text += `cpu-reupload ÷ cpu: ${times(ratio(again.mainCpuPerFrame.median, cpu.mainCpuPerFrame.median), 2)} main CPU a frame, ${times(ratio(again.workPerFrame.median, cpu.workPerFrame.median), 2)} ticker work.\n\n`;
    }
  }
  return text;
}

function pixiPortSection(port) {
  if (port === undefined) return '';
  return `## 10. A PixiJS example, ported

The PixiJS site's particle-container example (pixijs/pixijs.com \`docs/examples/particle-container_basic.js\`: maggots
that turn, wobble and wrap round the screen), ${entities(port.count)} of them on an 800×600 canvas, three ways: **original**, its code as
published (a Container of Sprites, moved once per frame on the main thread); **original-particles**, the same
update loop over the Particles of a ParticleContainer (the rendering the port does); **port**, the example ported
onto steadyframe from the READMEs alone with default options (\`apps/bench/src/maggots/\`: the motion in a 30 ticks/s
worker, the example's per-maggot properties in \`privateFields\`, wrap-arounds as \`world.snap\`; \`bindParticles\` +
\`attachToTicker\` on the page). Per 1 s window: **rAF/s**, the animation frames the browser offered (headless: as
fast as frames finish, at most 60); **drawn/rAF**, renders per animation frame; the page main thread's CPU and all
Chromium threads' CPU per drawn frame (software GL included); **lit**, canvas pixels drawn after one render;
**moved**, maggots whose drawn x changed over 0.5 s.

${table(
    ['design', 'rAF/s', 'drawn/rAF', 'main CPU / frame ms', 'all CPU / frame ms', 'lit px', 'moved', 'late / overtaken / frames'],
    port.rows.map((r) => [
      r.design,
      sp(r.summary.rafPerSecond, 1),
      sp(r.summary.drawnPerRaf, 3),
      sp(r.summary.mainCpuPerFrame, 2),
      sp(r.summary.totalCpuPerFrame, 1),
      String(r.litPixels),
      String(r.moved),
      r.port === null ? '—' : `${r.port.late} / ${r.port.overtaken} / ${r.port.frames}`,
    ]),
  )}

`;
}

/** Issue #37's goal, from the events suite: the ring costs a frame that presents no events nothing measurable. */
function eventsGoals(events) {
  const goal = 'frame cost with events enabled and none emitted within the run\'s spread of `events: false` (schema3d, `frameAt`)';
  if (events === undefined) return [{ goal, measured: 'not measured (suite events did not run)', met: null, why: '' }];
  const rows = events.frame;
  return [
    {
      goal,
      measured: rows
        .map((r) => `${entities(r.count)}: ${num(1000 * r.on.median, 2)} µs vs ${num(1000 * r.off.median, 2)} µs (${num(1000 * r.off.min, 2)}–${num(1000 * r.off.max, 2)}); enabled ÷ false per pair of samples ${num(r.ratio.median, 3)}, middle half ${num(r.ratioQuartiles.p25, 3)}–${num(r.ratioQuartiles.p75, 3)}`)
        .join('; '),
      met: rows.length > 0 ? rows.every((r) => r.withinSpread) : null,
      why:
        'with none emitted a frame\'s `present()` is a load of the ring\'s WRITE word and one comparison (nothing to hand back, no record read); the rest of the frame is the same code' +
        (rows.some((r) => r.ratioQuartiles.p25 > 1 || r.ratioQuartiles.p75 < 1)
          ? `. The middle half of the paired ratios leaves out 1 at ${rows.filter((r) => r.ratioQuartiles.p25 > 1 || r.ratioQuartiles.p75 < 1).map((r) => `${entities(r.count)} (${num(r.differenceNs, 0)} ns a frame)`).join(', ')}: a difference that pairing resolves but the spread of samples does not`
          : '; the middle half of the paired ratios holds 1 at every size') +
        '. Per event, see section 15.',
    },
  ];
}

function tablesSection(result) {
  const data = result?.data;
  if (data === undefined) return '';
  const when = result.measuredAt ? ` Measured ${result.measuredAt.slice(0, 16).replace('T', ' ')} UTC, in a run of its own.` : '';
  const load = result.loadAverage ? ` Load average (1, 5, 15 min) before ${result.loadAverage.before.map((x) => x.toFixed(2)).join(', ')}, after ${result.loadAverage.after.map((x) => x.toFixed(2)).join(', ')} (2 cores).` : '';
  const rows = data.rows.map((r) => [
    r.scene,
    String(r.live),
    `${r.plainCount} / ${r.tablesCount}`,
    sp(r.frame.plain, 4),
    sp(r.frame.tables, 4),
    sp(r.frame.ratio, 2),
    sp(r.publish.plain, 4),
    sp(r.publish.tables, 4),
    sp(r.publish.ratio, 2),
  ]);
  return `## 16. Entity tables

Issue #39: ships, rocks and bullets as three tables (\`defineTables\`: 64, 2,048 and 8,192 entities; ships with
position, angle and shield, rocks with position, angle and radius, bullets with position alone) against the same
live entities in one plain schema carrying every field and a \`kind\` (what a game did before tables). **Frame**:
main-thread ms per \`runtime.sample(t)\` at alpha 0.5 on each runtime, held on the same two ticks: a schema of
tables blends each table's live entities alone. **Publish copy**: ms per \`PublishCopier.publish\` (a publish's
copies, outside the lock; the flip is the same for both): each table's live entities in each run, spans closer
than 4 KB merged (ARCHITECTURE.md, "Entity tables"). The third column is the plain count against the tables'
extent (up to the last table's live entities), which the other paths (a render delay's history, the message
transport, extrapolation) still take whole. ${data.samples} samples each, alternating; ratios per pair.${when}${load}

${table(['scene', 'live', 'copied and blended: plain / tables', 'frame plain ms', 'frame tables ms', 'tables ÷ plain', 'publish plain ms', 'publish tables ms', 'tables ÷ plain'], rows)}

What is left over one plain schema is a copy or a kernel call per table per run instead of one per run (a few
tenths of a µs each): in the sparse scene, a few µs a frame and a publish in all. A plain schema's rows are
suites 1 and 6.

`;
}

function eventsSection(result) {
  const events = result?.data;
  if (events === undefined) return '';
  const when = result.measuredAt ? ` Measured ${result.measuredAt.slice(0, 16).replace('T', ' ')} UTC, in a run of its own.` : '';
  const load = result.loadAverage ? ` Load average (1, 5, 15 min) before ${result.loadAverage.before.map((x) => x.toFixed(2)).join(', ')}, after ${result.loadAverage.after.map((x) => x.toFixed(2)).join(', ')} (2 cores).` : '';
  const frameRows = events.frame.map((r) => [
    entities(r.count),
    sp(r.off, 2, 1000),
    sp(r.on, 2, 1000),
    sp(r.ratio, 3),
    `${num(r.ratioQuartiles.p25, 3)}–${num(r.ratioQuartiles.p75, 3)}`,
    num(r.fastestRatio, 3),
    num(r.differenceNs, 0),
    r.withinSpread ? 'yes' : '**no**',
    `${r.waits.off} / ${r.waits.on}`,
  ]);
  const runtimeRows = (events.runtime ?? []).map((r) => [
    String(r.n),
    String(r.capacity),
    sp(r.frameMs, 2, 1000),
    r.pageNsPerEvent ? sp(r.pageNsPerEvent, 1) : '— (baseline)',
    sp(r.stepMs, 2, 1000),
    r.workerNsPerEvent ? sp(r.workerNsPerEvent, 1) : '— (baseline)',
    `${r.wrongFrames} / ${r.lost} / ${r.waits}`,
  ]);
  const costRows = (rows) =>
    rows.map((r) => [String(r.n), String(r.capacity), sp(r.tickMs, 2, 1000), r.nsPerEvent ? sp(r.nsPerEvent, 1) : '— (baseline)', String(r.lost)]);
  return `## 15. Events

What the event ring (issue #37; ARCHITECTURE.md, "Events and the frame that shows them") costs each side.${when}${load}

**A frame with no events.** Main-thread µs per \`runtime.frameAt(t)\` (catch-up check, the SIMD blend of schema3d,
\`present()\`, the announce, the watchdog) on two runtimes side by side: \`events: false\` and the default ring
(4,096 records) with nothing emitted. Both workers are attached and held (two \`stepOnce\`, never started) and t
is fixed halfway between their two ticks, so every call does the same work and no worker thread competes for the
two shared cores: the variants differ only by the event path. (A running worker publishes between calls, and
each frame then blends other data: noise far above the one load of WRITE that \`present()\` adds.) Samples of
about 1 ms of calls (short: on a loaded machine most of them then run unpreempted), ${events.samples.frame} of each, alternating (the
order flipping each round). The ratio is per pair of samples, with its quartiles ("middle half": a sample the OS
preempted puts one pair's ratio far off either way, as the min–max shows), and the ratio of the two fastest
samples (the least disturbed reading of work that is the same every call; the timer's grain, 5 µs in a
cross-origin isolated page, is about 0.5% of a sample). "Within" = the enabled median lies inside the min–max of
\`events: false\`'s samples. Catch-up waits: frames that waited for the worker while measured (0: none).

${table(['entities', 'events: false µs', 'enabled, none emitted µs', 'enabled ÷ false', 'its middle half', 'fastest ÷ fastest', 'difference ns', 'within the spread', 'catch-up waits'], frameRows)}

**Per event, the worker's side:** \`tick.emit(code, p0..p3)\` (the emitter a step gets, \`worker/tick-events.ts\`)
N times a tick, then \`EventWriter.commit()\` (what the publish's flip runs), timed in a worker, one per N
(\`apps/bench/src/events.worker.ts\`: the call site of \`tick.emit\` sees one emitter, as in a simulation worker;
the workers take turns, sample by sample): µs per tick, and ns per event = (µs a tick at N − the same round's
at 0) / N.
**Per event, the page's side:** \`EventReader.present(tick)\` (what each frame runs) and \`code(i)\` + \`payload(i, 0)\`
of each of its N events (\`frame.events\` is that window), on the page's main thread: µs per frame, ns per event
likewise. Both are micro-measures on the ring's two classes (\`apps/bench/src/shared/event-costs.ts\`): one
thread writes and reads the ring, the other side's work untimed between batches, so the records are in the timed
thread's cache (in the runtime the page reads what the worker wrote on another core, which can cost more per
record). The ring is the default 4,096 records, or four ticks' events where that is more (16,384 and up, as
"Capacity" sizes it); ${[...events.emit, ...events.present].some((r) => r.lost > 0) ? '**some events were lost** (the column)' : 'no event was lost'}. ${events.samples.perEvent} samples of about 2 ms each, every N in every round, the order rotating.

${table(['N a tick', 'ring', 'worker: emit + commit µs / tick', 'ns / event', 'lost'], costRows(events.emit))}

${table(['N a frame', 'ring', 'page: present + read µs / frame', 'ns / event', 'lost'], costRows(events.present))}
${runtimeRows.length === 0 ? '' : `
**Both sides through the runtime**, a check on the two tables above: four runtimes of ${entities(events.runtimeCount)} schema3d entities whose
worker's step emits N events after its work (\`apps/bench/src/sim.worker.ts\`, \`emit\`), taking turns frame by frame:
\`stepOnce()\`, then, timed, \`frameAt\` at the new tick's time (it presents that tick's N events) and \`code(i)\` +
\`payload(i, 0)\` of each; the worker's side is \`stats().worker.lastStepMs\`, the step alone (\`tick.emit\` included;
the commit, one store in the publish's flip, is not). Here the page reads what the worker wrote on another core.
One timer reading a frame or a step (the grain is 5 µs), so each sample is the mean of ${events.framesPerSample} frames;
${events.samples.runtime} samples; ns per event against the same sample's N = 0. Wrong frames: frames whose events were not exactly the step's N.

${table(['N a tick', 'ring', 'page: frameAt + read µs', 'ns / event', 'worker: step µs', 'ns / event', 'wrong frames / lost / catch-up waits'], runtimeRows)}
`}`;
}

function renderReport(run) {
  const { machine: m, results } = run;
  const g = goals(results);
  const mark = (met) => (met === null ? 'not measured' : met ? '**met**' : '**not met**');
  return `# steadyframe benchmarks

Run with \`npm run bench\` (\`scripts/bench.mjs\`: builds \`apps/bench\`, serves it with \`vite preview\`, drives headless
Chromium through playwright, writes this file and \`benchmarks.json\`). \`STEADYFRAME_BENCH_QUICK=1\` for a short trial
run (writes nothing), \`STEADYFRAME_BENCH_SUITES=frame,motion\` for some suites. On a shared machine:
\`flock /tmp/steadyframe-browser.lock npm run bench\`.

**These figures come from a shared, noisy machine** (2 vCPUs; other sessions run tests on it). Every comparison is
therefore a ratio to a baseline measured in the same run, side by side; numbers are medians with the (min–max)
spread of repeated samples. Nothing here is a test assertion on time.${run.quick ? '\n\n**This was a quick run** (fewer sizes, shorter windows).' : ''}

| machine | |
|---|---|
| CPU | ${m.cpu}${m.cpuMHz ? ` (${Math.round(m.cpuMHz)} MHz)` : ''} |
| cores | ${m.cores} |
| memory | ${m.memoryGiB} GiB |
| browser | ${m.chromium}, headless, via playwright |
| OS, Node | ${m.os}, Node ${m.node} |
| load average at start | ${m.loadAverageAtStart.map((x) => x.toFixed(2)).join(', ')} |
| date, duration | ${run.date}, ${run.seconds} s |

## Goals

${table(['goal', 'measured', 'verdict', 'why'], g.map((x) => [x.goal, x.measured, mark(x.met), x.why]))}

${frameSection(results.frame?.data)}
${transportSection(results.transport?.data)}
${motionSection(results.motion?.data)}
${timingSection(results.timing?.data)}
${lockSection(results.lock?.data)}
${publishSection(results.publish?.data)}
${physicsSection(results.physics?.data)}
${pixiSection(results.pixi?.data)}
${renderSection(results.render?.data)}
${pixiPortSection(results['pixi-port']?.data)}${pixiChurnSection(results['pixi-churn']?.data)}${phaserPortSection(results['phaser-port'])}${threeUploadSection(results['three-upload'])}${threeWebgpuSection(results['three-webgpu'])}${babylonSection(results.babylon)}${r3fPortSection(results['r3f-port'])}${eventsSection(results.events)}${tablesSection(results.tables)}
${Object.keys(run.errors).length > 0 ? `## Errors\n\n${Object.entries(run.errors).map(([k, v]) => `- ${k}: ${String(v).split('\n')[0]}`).join('\n')}\n` : ''}`;
}

if (process.env.STEADYFRAME_BENCH_RENDER) {
  // re-render a committed run's markdown (after a change to the report's wording), without measuring again
  const run = JSON.parse(readFileSync(process.env.STEADYFRAME_BENCH_RENDER, 'utf8'));
  writeFileSync(join(dirname(process.env.STEADYFRAME_BENCH_RENDER), 'benchmarks.md'), renderReport(run));
} else {
  await main();
}
