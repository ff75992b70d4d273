/**
 * The physics comparison: the same Rapier scene (shared/physics-scene.ts, same Rapier version) run two ways,
 * each in a fresh page of its own (an iframe: see physics-run.ts), at 1k, 5k and 10k bodies, alternating
 * designs, repeated. (a) `main`: Rapier stepped on the main thread in requestAnimationFrame, fixed-step
 * accumulator and interpolation; (b) `worker`: Rapier in the steadyframe worker with @steadyframe/rapier.
 */
import { log, sleep } from '../page.ts';
import { spread, type Spread } from '../shared/stats.ts';
import type { PhysicsDesign, PhysicsRunResult } from './physics-run.ts';

export interface PhysicsRow {
  readonly design: PhysicsDesign;
  readonly bodies: number;
  readonly runs: readonly PhysicsRunResult[];
  readonly summary: Record<'startMs' | 'fps' | 'mainCpuPerFrame' | 'workPerFrame' | 'simSpeed' | 'judderP50' | 'judderP99' | 'stepMs' | 'lateFrames', Spread>;
}

/** Opens `?suite=physics-run&...` in an iframe and waits for its result. */
async function runInFrame(design: PhysicsDesign, bodies: number, quick: boolean): Promise<PhysicsRunResult> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width: 320px; height: 200px; border: 0';
  frame.src = `${location.pathname}?suite=physics-run&design=${design}&bodies=${bodies}${quick ? '&quick=1' : ''}`;
  document.body.append(frame);
  try {
    for (let waited = 0; ; waited += 100) {
      await sleep(100);
      const w = frame.contentWindow as (Window & { __done?: boolean; __error?: string; __results?: { data: PhysicsRunResult } }) | null;
      if (w?.__done === true) {
        if (w.__error !== undefined) throw new Error(`physics run ${design} at ${bodies}: ${w.__error}`);
        return w.__results!.data;
      }
      if (waited > 120_000) throw new Error(`physics run ${design} at ${bodies} did not finish in 2 minutes`);
    }
  } finally {
    frame.remove();
    await sleep(300); // the frame's worker and timers go with it
  }
}

export async function physics(quick: boolean) {
  const sizes = quick ? [1000, 10_000] : [1000, 5000, 10_000];
  const repeats = quick ? 1 : 3;
  const rows: PhysicsRow[] = [];
  // one discarded run of each first: both then start with Rapier's chunks in the HTTP and code caches (a
  // returning visitor), instead of whichever runs first paying the cold load alone
  for (const design of ['main', 'worker'] as const) await runInFrame(design, 1000, true);
  for (const bodies of sizes) {
    const runs: Record<PhysicsDesign, PhysicsRunResult[]> = { main: [], worker: [] };
    for (let r = 0; r < repeats; r++) {
      // alternate which design goes first, so neither always runs on a cooler machine
      const order: PhysicsDesign[] = r % 2 === 0 ? ['main', 'worker'] : ['worker', 'main'];
      for (const design of order) {
        const result = await runInFrame(design, bodies, quick);
        log(`physics ${design} ${bodies}: start ${result.startMs.toFixed(0)} ms, ${result.fps.toFixed(1)} fps, main ${result.mainCpuPerFrame.toFixed(2)} ms/frame, work ${result.workPerFrame.toFixed(2)} ms, sim speed ${result.simSpeed.toFixed(2)}, judder p99 ${(100 * result.judderP99).toFixed(1)}%, step ${result.stepMs.toFixed(2)} ms, dropped ${result.droppedMs.toFixed(0)} ms, late frames ${(100 * result.lateFrames).toFixed(1)}%`);
        runs[design].push(result);
      }
    }
    for (const design of ['main', 'worker'] as const) {
      const list = runs[design];
      const of = (key: keyof PhysicsRunResult) => spread(list.map((x) => x[key] as number));
      rows.push({
        design,
        bodies,
        runs: list,
        summary: {
          startMs: of('startMs'),
          fps: of('fps'),
          mainCpuPerFrame: of('mainCpuPerFrame'),
          workPerFrame: of('workPerFrame'),
          simSpeed: of('simSpeed'),
          judderP50: of('judderP50'),
          judderP99: of('judderP99'),
          stepMs: of('stepMs'),
          lateFrames: of('lateFrames'),
        },
      });
    }
  }
  return { tickRate: 60, rows };
}
