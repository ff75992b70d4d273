/**
 * `useFrameEvents` and `useGameState` under a real `<Steadyframe>` with a worker that emits every tick (and a
 * `none` game field that is the tick): each event reaches the handler exactly once, in order, in the animation
 * frame that shows its tick (the frame's score, the shown tick, is the last event's tick), only on refreshes the
 * pacer keeps; the latest handler is the one called; useGameState renders the score the frame shows.
 */
import { useFrame } from '@react-three/fiber';
import { Steadyframe, UPDATE_PRIORITY, useFrameEvents, useGameState, useSteadyframeContext } from '@steadyframe/react-three-fiber';
import { useState } from 'react';
import { createRuntime } from 'steadyframe';
import { afterEach, expect, it } from 'vitest';
import { waitFor } from '../../../runtime/test/browser/helpers.ts';
import { BONUS, eventsSchema, TICKED } from './fixtures/events-schema.ts';
import { mount } from './helpers.tsx';

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

const create = () =>
  createRuntime({
    worker: new Worker(new URL('./fixtures/events.worker.ts', import.meta.url), { type: 'module', name: 'events' }),
    schema: eventsSchema,
    capacity: 4,
  });

interface Seen {
  /** Per animation frame: whether it was drawn, the score it shows, the ticks of the events handled in it. */
  frames: Array<{ paced: boolean; score: number; ticks: number[] }>;
  bonus: number;
  handlers: Set<number>;
  rendered: number[];
}

function Listener({ seen }: { seen: Seen }) {
  // a new handler each render, naming its render: the latest one must be the one called
  const [render, setRender] = useState(0);
  const score = useGameState<typeof eventsSchema>('score');
  seen.rendered.push(score);
  const { runtime, paced } = useSteadyframeContext<typeof eventsSchema>();
  useFrame(() => {
    // before the hooks' own callbacks (same priority, subscribed first): a fresh entry for this frame
    seen.frames.push({ paced: paced(), score: runtime.state.score, ticks: [] });
  }, UPDATE_PRIORITY - 1);
  useFrameEvents((event) => {
    seen.handlers.add(render);
    if (event.code === TICKED) seen.frames.at(-1)!.ticks.push(event.payload(0));
    else if (event.code === BONUS && event.payload(1) === 3) seen.bonus++;
    if (render === 0 && event.tick > 5) setRender(1);
  });
  return null;
}

it('calls the handler for each event once, in the frame that shows its tick; useGameState follows the shown score', async () => {
  const seen: Seen = { frames: [], bonus: 0, handlers: new Set(), rendered: [] };
  mounted = mount(
    <Steadyframe create={create}>
      <Listener seen={seen} />
    </Steadyframe>,
  );
  await waitFor('60 ticks of events', () => seen.frames.flatMap((f) => f.ticks).length >= 60);
  const ticks = seen.frames.flatMap((f) => f.ticks);
  const first = ticks[0]!;
  expect(ticks).toEqual(ticks.map((_, i) => first + i)); // every tick once, in order
  for (const frame of seen.frames) {
    if (!frame.paced) expect(frame.ticks).toEqual([]); // a skipped refresh presents nothing
    // the events end with those of the tick the frame shows (score = the shown tick)
    if (frame.ticks.length > 0) expect(frame.ticks.at(-1)).toBe(frame.score);
  }
  expect(seen.bonus).toBeGreaterThan(10);
  expect(seen.handlers.has(1)).toBe(true); // the handler of the later render took over
  await waitFor('a render with the score', () => seen.rendered.some((s) => s > 5));
});
