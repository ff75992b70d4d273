/**
 * The benchmark page: `?suite=frame|transport|motion|timing|lock|publish|physics|pixi|pixi-churn|pixi-port|phaser-port|three-upload|three-webgpu|babylon|r3f-port|render|events|tables` runs one suite (`&quick=1` for a short run)
 * and leaves its results in `window.__results` (and `window.__done = true`), or `window.__error`.
 * scripts/bench.mjs opens one fresh page per suite and collects them.
 */
import { log } from './page.ts';

const params = new URLSearchParams(location.search);
const suite = params.get('suite') ?? '';
const quick = params.get('quick') === '1';

const suites: Record<string, () => Promise<unknown>> = {
  frame: async () => (await import('./suites/frame-cost.ts')).frameCost(quick),
  transport: async () => (await import('./suites/transport.ts')).transport(quick),
  motion: async () => (await import('./suites/motion.ts')).motion(quick),
  timing: async () => (await import('./suites/timing.ts')).timing(quick),
  lock: async () => (await import('./suites/lock.ts')).lock(quick),
  publish: async () => (await import('./suites/publish.ts')).publish(quick),
  physics: async () => (await import('./suites/physics.ts')).physics(quick),
  render: async () => (await import('./suites/render.ts')).render(quick),
  events: async () => (await import('./suites/events.ts')).events(quick),
  tables: async () => (await import('./suites/tables.ts')).tables(quick),
  // one run of the physics suite, in the iframe it opens (a fresh page: its load time is the run's own)
  'physics-run': async () => {
    // the CPU meter reads /proc through the function the runner gave the top page
    const snapshot = (window.parent as Window).__procSnapshot;
    if (window.__procSnapshot === undefined && snapshot !== undefined) window.__procSnapshot = snapshot;
    const design = params.get('design') === 'main' ? 'main' : 'worker';
    return (await import('./suites/physics-run.ts')).physicsRun(design, Number(params.get('bodies') ?? 1000), quick);
  },
  pixi: async () => (await import('./suites/pixi.ts')).pixi(quick),
  'pixi-churn': async () => (await import('./suites/pixi.ts')).pixiChurn(quick),
  'pixi-port': async () => (await import('./suites/pixi-port.ts')).pixiPort(quick, params.has('count') ? Number(params.get('count')) : undefined),
  // `designs=webgpu` narrows the designs
  'three-webgpu': async () =>
    (await import('./suites/three-webgpu.ts')).threeWebgpu(
      quick,
      params.has('sizes') ? params.get('sizes')!.split(',').map(Number) : undefined,
      params.has('designs') ? (params.get('designs')!.split(',') as Array<'webgl' | 'webgpu'>) : undefined,
    ),
  'three-upload': async () => (await import('./suites/three-upload.ts')).threeUpload(quick, params.has('sizes') ? params.get('sizes')!.split(',').map(Number) : undefined),
  babylon: async () => (await import('./suites/babylon.ts')).babylon(quick, params.has('sizes') ? params.get('sizes')!.split(',').map(Number) : undefined),
  'phaser-port': async () => (await import('./suites/phaser-port.ts')).phaserPort(quick, params.has('sizes') ? params.get('sizes')!.split(',').map(Number) : undefined),
  // `designs=ours,floor` narrows the designs; `shots=1` keeps a PNG of each run's canvas in window.__pictures
  'r3f-port': async () =>
    (await import('./suites/r3f-port.ts')).r3fPort(
      quick,
      params.has('sizes') ? params.get('sizes')!.split(',').map(Number) : undefined,
      params.has('designs') ? (params.get('designs')!.split(',') as ('rapier' | 'cannon' | 'ours' | 'floor')[]) : undefined,
      params.get('shots') === '1',
    ),
};

async function run(): Promise<void> {
  if (!crossOriginIsolated) throw new Error('the page is not cross-origin isolated: serve it with COOP/COEP (vite.config.ts does)');
  const go = suites[suite];
  if (go === undefined) {
    log(`pick a suite: ?suite=${Object.keys(suites).join('|')} (&quick=1)`);
    return;
  }
  log(`suite ${suite}${quick ? ' (quick)' : ''}`);
  const started = performance.now();
  const data = await go();
  window.__results = { suite, quick, seconds: (performance.now() - started) / 1000, userAgent: navigator.userAgent, data };
  log(`suite ${suite} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

run().then(
  () => {
    window.__done = true;
  },
  (error: unknown) => {
    window.__error = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
    console.error(error);
    window.__done = true;
  },
);
