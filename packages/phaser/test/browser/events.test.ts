/**
 * Events on the scene's emitter: SteadyframePlugin.attach emits each event a drawn frame presents on
 * `scene.events` as FRAME_EVENT, in the refresh that draws the frame (before the scene's `update`), once, in
 * order; the events of a refresh end with those of the tick its frame shows (a `none` game field that is the
 * tick says which). `events: false` emits none.
 */
import { afterEach, expect, it } from 'vitest';
import { Scene, type Game } from 'phaser';
import { createRuntime, type GameEvent, type Runtime } from 'steadyframe';
import { FRAME_EVENT, SteadyframePlugin } from '@steadyframe/phaser';
// the React Three Fiber adapter's fixture: every tick emits TICKED (payload 0 the tick), score is the tick
import { BONUS, eventsSchema, TICKED } from '../../../react-three-fiber/test/browser/fixtures/events-schema.ts';
import { makeGame, refresh } from './helpers.ts';

type EventsRuntime = Runtime<typeof eventsSchema>;

class World extends Scene {
  declare steadyframe: SteadyframePlugin;
  updates = 0;
  constructor() {
    super('world');
  }
  override update(): void {
    this.updates++;
  }
}

let game: Game | undefined;
afterEach(() => {
  game?.destroy(true);
  game = undefined;
});

const plugins = { scene: [{ key: 'SteadyframePlugin', plugin: SteadyframePlugin, mapping: 'steadyframe' }] };

const eventsRuntime = (): Promise<EventsRuntime> =>
  createRuntime({
    worker: new Worker(new URL('../../../react-three-fiber/test/browser/fixtures/events.worker.ts', import.meta.url), { type: 'module', name: 'events' }),
    schema: eventsSchema,
    capacity: 4,
    pacing: { adaptive: false },
  });

async function world(): Promise<{ g: Game; scene: World }> {
  game = await makeGame(World, { plugins });
  return { g: game, scene: game.scene.getScene('world') as World };
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/** Refreshes the game at each animation frame's timestamp (its own loop sleeps) until `done`, for up to 10 s. */
async function refreshUntil(g: Game, what: string, done: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await refresh(g, await nextFrame());
  }
}

it("emits each presented event on the scene's emitter, once, in order, in the refresh that draws its tick", async () => {
  const { g, scene } = await world();
  const runtime = (await scene.steadyframe.create(eventsRuntime))!;
  /** Per refresh: the ticks of the TICKED events emitted in it, the score its frame shows, updates before them. */
  const refreshes: Array<{ ticks: number[]; score: number; updatesBefore: number }> = [];
  let current: { ticks: number[]; score: number; updatesBefore: number } | null = null;
  let bonus = 0;
  let same: GameEvent | null = null;
  let reused = true;
  scene.steadyframe.attach(runtime, (frame) => {
    current = { ticks: [], score: frame.state.score, updatesBefore: scene.updates };
    refreshes.push(current);
  });
  scene.events.on(FRAME_EVENT, (event: GameEvent) => {
    if (same !== null && same !== event) reused = false;
    same = event;
    if (event.code === TICKED) current!.ticks.push(event.payload(0));
    else if (event.code === BONUS) bonus++;
    expect(scene.updates).toBe(current!.updatesBefore); // before the scene's update of this refresh
  });
  await runtime.start();
  await refreshUntil(g, '60 ticks of events', () => refreshes.flatMap((r) => r.ticks).length >= 60);
  const ticks = refreshes.flatMap((r) => r.ticks);
  expect(ticks).toEqual(ticks.map((_, i) => ticks[0]! + i)); // each tick once, in order
  for (const r of refreshes) if (r.ticks.length > 0) expect(r.ticks.at(-1)).toBe(r.score);
  expect(bonus).toBeGreaterThan(10);
  expect(reused).toBe(true); // one event object for all: nothing allocated per event
});

it('emits nothing with events: false', async () => {
  const { g, scene } = await world();
  const runtime = (await scene.steadyframe.create(eventsRuntime))!;
  let emitted = 0;
  let drawn = 0;
  scene.steadyframe.attach(runtime, () => drawn++, { events: false });
  scene.events.on(FRAME_EVENT, () => emitted++);
  await runtime.start();
  await refreshUntil(g, 'frames with ticks', () => drawn > 20 && runtime.state.score > 10);
  expect(emitted).toBe(0);
});
