/** Page-side helpers shared by the suites: frames, logging, CPU readings from the runner, results. */

/** One thread of a Chromium process, as the runner read it from /proc. */
export interface ProcThread {
  readonly pid: number;
  readonly tid: number;
  /** The thread's name (comm, 15 characters at most), e.g. DedicatedWorker, Compositor. */
  readonly name: string;
  /** The process's --type (renderer, gpu-process, utility, zygote) or 'browser'. */
  readonly type: string;
  /** CPU time on the core so far, ns (the first field of /proc/<pid>/task/<tid>/schedstat). */
  readonly ns: number;
}

export interface ProcSnapshot {
  readonly threads: readonly ProcThread[];
}

declare global {
  interface Window {
    /**
     * Provided by scripts/bench.mjs (page.exposeFunction); absent when the page is opened by hand. A JSON string:
     * playwright's own decoding of the same snapshot as an object costs the page's main thread far more than
     * JSON.parse does, inside the window a meter measures (ARCHITECTURE.md, "Measurements behind the code").
     */
    __procSnapshot?: () => Promise<string>;
    __results?: unknown;
    __done?: boolean;
    __error?: string;
    /** With --js-flags=--expose-gc. */
    gc?: () => void;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

export function log(message: string): void {
  console.log(`[bench] ${message}`);
  const pre = document.getElementById('log');
  if (pre !== null) pre.textContent += `${message}\n`;
}

/** A full GC if the browser exposes one, then a moment for the heap to settle. */
export async function collectGarbage(): Promise<void> {
  window.gc?.();
  await sleep(50);
}

export async function procSnapshot(): Promise<ProcSnapshot | null> {
  return window.__procSnapshot === undefined ? null : (JSON.parse(await window.__procSnapshot()) as ProcSnapshot);
}

export interface CpuUse {
  /** Wall-clock ms between the two readings (page clock). */
  readonly wallMs: number;
  /** CPU ms of the renderers' main threads (the page's; other renderers idle). */
  readonly main: number;
  /** CPU ms of all dedicated worker threads. */
  readonly workers: number;
  /** CPU ms of every thread of every Chromium process. */
  readonly total: number;
}

/** A renderer's main thread is the process's first thread (tid = pid; Debian's build leaves its name 'chromium'). */
export const isMainThread = (t: ProcThread) => t.type === 'renderer' && t.tid === t.pid;
export const isWorkerThread = (t: ProcThread) => t.name.startsWith('DedicatedWorker');

/** A CPU meter: `start()` then `stop()` gives the CPU each kind of thread used in between; NaN without a runner. */
export function cpuMeter() {
  let before: ProcSnapshot | null = null;
  let startedAt = 0;
  return {
    async start(): Promise<void> {
      before = await procSnapshot();
      startedAt = performance.now();
    },
    async stop(): Promise<CpuUse> {
      const wallMs = performance.now() - startedAt;
      const after = await procSnapshot();
      if (before === null || after === null) return { wallMs, main: Number.NaN, workers: Number.NaN, total: Number.NaN };
      const old = new Map(before.threads.map((t) => [`${t.pid}/${t.tid}`, t.ns]));
      let main = 0;
      let workers = 0;
      let total = 0;
      for (const t of after.threads) {
        // a thread that started in between counts from 0
        const ms = (t.ns - (old.get(`${t.pid}/${t.tid}`) ?? 0)) / 1e6;
        total += ms;
        if (isMainThread(t)) main += ms;
        if (isWorkerThread(t)) workers += ms;
      }
      return { wallMs, main, workers, total };
    },
  };
}

/** Ms per call of `fn`, timed over `k` calls. */
export function timeCalls(fn: () => void, k: number): number {
  const start = performance.now();
  for (let i = 0; i < k; i++) fn();
  return (performance.now() - start) / k;
}
