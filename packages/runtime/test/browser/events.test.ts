/**
 * Events and game state at real animation frames: on the page (`draw`) and with a render worker (its frames'
 * reports, the `present` event), every event comes once, in order, in the first frame that shows its tick, with
 * that frame's game state. Frames are rAF's, so which ticks each shows is whatever the machine makes of it: the
 * rule is checked frame by frame, not timed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRenderWorkerRuntime, createRuntime, type PresentedFrame } from 'steadyframe';
import { scoreSchema } from './fixtures/schemas.ts';
import { fixtureWorker, sleep } from './helpers.ts';

type S = typeof scoreSchema;

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

/** Checks each presented frame against the rule; collects what went wrong. */
function presentationChecker() {
  const seen = { frames: 0, events: 0, problems: [] as string[] };
  let shownBefore = -1;
  let nextSequence = 0;
  let tick = 0;
  let k = 0;
  const check = (p: PresentedFrame<S>): void => {
    seen.frames++;
    if (p.tick > 0 && p.state.score !== p.tick) seen.problems.push(`frame ${p.index} shows tick ${p.tick} with the score of ${p.state.score}`);
    for (let i = 0; i < p.events.length; i++) {
      const t = p.events.tick(i);
      seen.events++;
      if (t > p.tick || t <= shownBefore) seen.problems.push(`frame ${p.index} showing tick ${p.tick} (the last showed ${shownBefore}) presented an event of tick ${t}`);
      if (p.events.sequence(i) !== nextSequence) seen.problems.push(`event ${p.events.sequence(i)} where ${nextSequence} was next`);
      nextSequence = p.events.sequence(i) + 1;
      if (t !== tick) {
        if (tick > 0 && k !== tick % 3) seen.problems.push(`tick ${tick} had ${k} events of ${tick % 3}`);
        tick = t;
        k = 0;
      }
      if (p.events.payload(i, 0) !== t || p.events.payload(i, 1) !== k) seen.problems.push(`event ${p.events.sequence(i)}: payload ${p.events.payload(i, 0)}, ${p.events.payload(i, 1)}`);
      k++;
    }
    if (p.tick > shownBefore) shownBefore = p.tick;
  };
  return { seen, check };
}

async function until(what: string, done: () => boolean, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('events and game state at animation frames', () => {
  it('on the page: each event once, in order, in the first frame that shows its tick, with its game state', async () => {
    const { seen, check } = presentationChecker();
    const runtime = await createRuntime<S>({
      worker: fixtureWorker('events'),
      schema: scoreSchema,
      capacity: 2,
      draw: (frame) => {
        // the frame's own view: the same as the present event's
        if (frame.tick > 0 && frame.alpha > 0 && frame.state.score !== frame.tick) seen.problems.push(`draw: tick ${frame.tick}, score ${frame.state.score}`);
      },
    });
    disposers.push(() => runtime.dispose());
    runtime.on('present', check);
    await runtime.start();
    await until('60 ticks of events', () => seen.events >= 40 && seen.frames >= 30);
    expect(seen.problems).toEqual([]);
    expect((await runtime.stats()).events.lost).toBe(0);
  });

  it('with a render worker: its frames report their events and game state to the page, by the same rule', async () => {
    const { seen, check } = presentationChecker();
    const runtime = await createRenderWorkerRuntime<S>({
      worker: fixtureWorker('events'),
      renderWorker: new Worker(new URL('./fixtures/plain.render.ts', import.meta.url), { type: 'module' }),
      canvas: document.createElement('canvas'),
      schema: scoreSchema,
      capacity: 2,
      renderIn: 'worker',
    });
    disposers.push(() => runtime.dispose());
    expect(runtime.renderer).toBe('worker');
    const off = runtime.on('present', check);
    await runtime.start();
    await until('60 ticks of events', () => seen.events >= 40 && seen.frames >= 30);
    off();
    expect(seen.problems).toEqual([]);
    const stats = await runtime.stats();
    expect(stats.events.lost).toBe(0);
    // the render worker presented them (it is the ring's one reader), the page only heard of them
    expect(stats.events.delivered).toBeGreaterThanOrEqual(seen.events);
  });
});
