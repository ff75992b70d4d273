/**
 * The page's watch over the render worker, and the blend kernels it runs. The render worker blends with the
 * page's WebAssembly SIMD kernels over the handed-over memory (the JS ones where it has no WebAssembly, or the
 * page asked for them); a render worker that throws raises `renderFault`, one that stops finishing frames
 * (a draw that hangs, a worker terminated) raises `renderUnresponsive` (and `renderResponsive` when its frames
 * come back), each with a console message naming the fix and a `stats().render` field; a hidden page is not a
 * hung renderer. Counts and events only, never wall-clock timings: a loaded machine may starve a render worker
 * past its timeout (an alarm and its answer, which the tests allow), never hold an alarm back for good. The watch
 * itself (silence against the timeout, hidden and stopped spells, starved spells, a frozen page) is a pure step
 * of time, table-tested in `test/node/render-watch.test.ts`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRenderWorkerRuntime, manualVisibility, type RenderWorkerRuntime, type VisibilityHook } from 'steadyframe';
import type { MotionCommands } from './fixtures/motion.worker.ts';
import { motionSchema } from './fixtures/schemas.ts';
import { askUntilAnswered } from 'steadyframe/testing';
import { fixtureWorker, sleep } from './helpers.ts';

let runtime: RenderWorkerRuntime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
  vi.restoreAllMocks();
});

type Counters = { drawn: number; checked: number; bad: number; firstBad: string };
let serial = 0;

async function watched(variant: string, options: { kernels?: 'js'; renderTimeout?: number | false; visibility?: VisibilityHook | 'document' } = {}) {
  const name = `watched-${variant}-${serial++}`;
  const renderWorker = new Worker(new URL('./fixtures/watched.render.ts', import.meta.url), { type: 'module', name });
  runtime = await createRenderWorkerRuntime<typeof motionSchema, MotionCommands>({
    worker: fixtureWorker('motion'),
    renderWorker,
    canvas: document.createElement('canvas'),
    schema: motionSchema,
    capacity: 4,
    renderIn: 'worker',
    // 'document': the runtime's own hook on document.visibilityState
    ...(options.visibility === 'document' ? {} : { visibility: options.visibility ?? manualVisibility(false) }),
    ...(options.kernels === undefined ? {} : { kernels: options.kernels }),
    ...(options.renderTimeout === undefined ? {} : { renderTimeout: options.renderTimeout }),
  });
  const channel = new BroadcastChannel(name);
  const counters = () => askUntilAnswered<Counters>(channel, 'counters', name);
  const events: string[] = [];
  for (const type of ['renderFault', 'renderUnresponsive', 'renderResponsive'] as const) runtime.on(type, () => events.push(type));
  return { runtime, renderWorker, counters, events, release: () => channel.postMessage('release'), close: () => channel.close() };
}

/**
 * The alarms (renderUnresponsive) and console warnings raised while `during` runs. (A renderResponsive then
 * answers an alarm raised before: not one of its own.)
 */
async function alarmsDuring(
  events: readonly string[],
  warn: { mock: { calls: unknown[][] } },
  during: () => Promise<void>,
): Promise<{ events: string[]; warnings: number }> {
  const eventsBefore = events.length;
  const warningsBefore = warn.mock.calls.length;
  await during();
  return { events: events.slice(eventsBefore).filter((e) => e === 'renderUnresponsive'), warnings: warn.mock.calls.length - warningsBefore };
}

/** Polls until `predicate` holds; a hang guard of 30 s (not a timing: a loaded machine only makes it slower). */
async function until(what: string, predicate: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Starts a watched render worker and lets it check `frames` blends against the runtime's; none may be bad. */
async function blendsChecked(variant: string, frames: number, options: { kernels?: 'js' } = {}) {
  const { runtime, counters, close } = await watched(variant, options);
  await runtime.start();
  await until('checked frames', async () => (await counters()).checked >= frames);
  const { bad, firstBad } = await counters();
  close();
  expect(bad, firstBad).toBe(0);
  return runtime.stats();
}

describe('the blend kernels in the render worker', () => {
  it("are the page's WebAssembly SIMD kernels, over the handed-over memory, and blend every frame right", async () => {
    const stats = await blendsChecked('wasm', 20);
    expect(stats.render.kernels).toBe('wasm-simd');
    // and they ran: every blend in wasm, none handed to JS (views not in their memory). Not one blend of the three
    // fields for each checked frame: a frame drawn late holds the newest state (a copy, no blend), and a CI run
    // under load drew 2 of 20 so (54 calls)
    expect(stats.render.kernelCalls.wasm).toBeGreaterThan(0);
    expect(stats.render.kernelCalls.fallback).toBe(0);
  });

  it('are the JS kernels in a render worker without WebAssembly, still right', async () => {
    const stats = await blendsChecked('no-wasm', 20);
    expect(stats.render.kernels).toBe('js');
    expect(stats.render.kernelCalls).toEqual({ wasm: 0, fallback: 0 });
  });

  it("are the JS kernels where the page asked for them (kernels: 'js': no memory to hand over)", async () => {
    const stats = await blendsChecked('js', 10, { kernels: 'js' });
    expect(stats.render.kernels).toBe('js');
  });
});

describe("the page's watch over the render worker", () => {
  it('raises renderFault for a draw that throws, says so in the console, and the frames go on', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // no silence watch: this is about the fault, and a loaded machine may starve a render worker past any timeout
    const { runtime, counters, events, close } = await watched('throws', { renderTimeout: false });
    const faults: Error[] = [];
    runtime.on('renderFault', (fault) => faults.push(fault));
    await runtime.start();
    await until('the fault', () => faults.length > 0);
    const drawn = (await counters()).drawn;
    await until('frames after the throw', async () => (await counters()).drawn > drawn + 10);
    close();
    expect(faults).toHaveLength(1);
    expect(faults[0]!.message).toMatch(/^steadyframe: the render worker threw: .*the draw threw on purpose/);
    expect(faults[0]!.message).toContain('fix the renderer');
    expect(error.mock.calls.map((call) => String(call[0]))).toContain(String(faults[0]));
    expect(events).toEqual(['renderFault']);
    const stats = await runtime.stats();
    expect(stats.render.errors).toBe(1);
    expect(stats.render.lastError).toContain('the draw threw on purpose');
    expect(stats.render.unresponsive).toBe(false);
  });

  it('raises renderUnresponsive for a draw that hangs, and renderResponsive when its frames come back', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { runtime, counters, events, release, close } = await watched('hangs', { renderTimeout: 400 });
    const silences: number[] = [];
    runtime.on('renderUnresponsive', ({ silentMs }) => silences.push(silentMs));
    await runtime.start();
    // the draws hang (1500 ms each) until the alarm is seen: a page whose timers a loaded machine starves past the
    // timeout measures silence afresh (render-watch.ts), and one 1500 ms hang once went unseen that way in CI
    await until('renderUnresponsive', () => events.includes('renderUnresponsive'));
    release();
    // stats() answers while the render worker cannot: its last answer, marked unresponsive
    const stuck = await runtime.stats();
    expect(stuck.render.unresponsive).toBe(true);
    // a warning (it may be one slow frame) naming the causes and the fix
    const warning = warn.mock.calls.map((call) => String(call[0])).find((m) => m.startsWith('steadyframe: the render worker finished no frame for'));
    expect(warning).toContain("fix the renderer's draw");
    await until('renderResponsive', () => events.includes('renderResponsive'));
    // past the hang (the 10th draw) whatever came first, and its alarm answered
    await until('frames after the hang', async () => (await counters()).drawn > 15);
    await until('the frames back', () => events.at(-1) === 'renderResponsive');
    close();
    // the hang: one alarm, raised past the timeout, and the frames back. (A loaded machine may starve
    // the render worker past the 400 ms timeout besides: each such spell is a pair of its own, in order.)
    expect(events.length).toBeGreaterThan(0);
    expect(events.length % 2).toBe(0);
    events.forEach((event, i) => expect(event).toBe(i % 2 === 0 ? 'renderUnresponsive' : 'renderResponsive'));
    expect(Math.min(...silences)).toBeGreaterThan(400);
    expect((await runtime.stats()).render.unresponsive).toBe(false);
  });

  it('raises renderUnresponsive for a render worker terminated under it, and stats() still answers', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { runtime, renderWorker, counters, events, close } = await watched('terminated', { renderTimeout: 300 });
    await runtime.start();
    await until('frames', async () => (await counters()).drawn >= 5);
    close();
    // (a loaded machine may have starved it past the timeout before: those events are not this test's)
    const before = events.length;
    renderWorker.terminate();
    await until('renderUnresponsive', () => events.at(-1) === 'renderUnresponsive');
    const stats = await runtime.stats();
    expect(stats.render.unresponsive).toBe(true);
    const drawn = stats.render.drawn;
    await sleep(200);
    expect((await runtime.stats()).render.drawn).toBe(drawn);
    // the simulation is the page's, untouched: it still answers
    expect(stats.worker.tick).toBeGreaterThan(0);
    expect(events.slice(before)).toEqual(events[before - 1] === 'renderUnresponsive' ? [] : ['renderUnresponsive']);
  });

  it('does not take a hidden page, or a stopped runtime, for a hung renderer', async () => {
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    const visibility = manualVisibility(false);
    const { runtime, counters, events, close } = await watched('hidden', { renderTimeout: 200, visibility });
    await runtime.start();
    await until('frames', async () => (await counters()).drawn >= 5);
    // what the watch says while the page is hidden, and while the runtime is stopped: nothing. (A loaded machine
    // may starve the render worker past the 200 ms timeout while it draws: that alarm is right, and not asked about.)
    const hidden = await alarmsDuring(events, warn, async () => {
      visibility.set(true);
      await sleep(800); // four timeouts without a frame
      visibility.set(false);
    });
    const drawn = (await counters()).drawn;
    await until('frames again', async () => (await counters()).drawn > drawn + 5);
    const stopped = await alarmsDuring(events, warn, async () => {
      await runtime.stop();
      await sleep(800);
    });
    close();
    expect(hidden).toEqual({ events: [], warnings: 0 });
    expect(stopped).toEqual({ events: [], warnings: 0 });
    expect(error).not.toHaveBeenCalled();
  });

  it("follows the page's own visibility (document.visibilityState, no hook passed): hidden, no frames and no alarm", async () => {
    const warn = vi.spyOn(console, 'warn');
    let state: DocumentVisibilityState = 'visible';
    const own = Object.getOwnPropertyDescriptor(document, 'visibilityState');
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    try {
      const { runtime, counters, events, close } = await watched('document', { renderTimeout: 200, visibility: 'document' });
      await runtime.start();
      await until('frames', async () => (await counters()).drawn >= 5);
      let hiddenAt = 0;
      const hidden = await alarmsDuring(events, warn, async () => {
        state = 'hidden';
        document.dispatchEvent(new Event('visibilitychange'));
        await until('the simulation told', async () => (await runtime.stats()).worker.hidden);
        // the render worker has it once it answers a call sent after it on the same port (comlink keeps order)
        await runtime.renderRemote!.stats();
        hiddenAt = (await counters()).drawn;
        await sleep(600); // three timeouts
        expect((await counters()).drawn).toBeLessThanOrEqual(hiddenAt + 1);
        state = 'visible';
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await until('frames again', async () => (await counters()).drawn > hiddenAt + 5);
      close();
      expect(hidden).toEqual({ events: [], warnings: 0 });
    } finally {
      if (own === undefined) Reflect.deleteProperty(document, 'visibilityState');
      else Object.defineProperty(document, 'visibilityState', own);
    }
  });

  it('takes renderTimeout in ms above 0, or false', async () => {
    const options = (renderTimeout: number) => ({
      worker: fixtureWorker('motion'),
      renderWorker: new Worker(new URL('./fixtures/watched.render.ts', import.meta.url), { type: 'module' }),
      canvas: document.createElement('canvas'),
      schema: motionSchema,
      capacity: 4,
      renderTimeout,
    });
    for (const [value, message] of [[0, 'got 0'], [Number.NaN, 'got NaN']] as const) {
      const made = options(value);
      await expect(createRenderWorkerRuntime(made)).rejects.toThrow(`steadyframe: renderTimeout must be a number of ms above 0, or false (never); ${message}`);
      made.worker.terminate();
      made.renderWorker.terminate();
    }
  });
});
