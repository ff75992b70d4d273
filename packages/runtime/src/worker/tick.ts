/**
 * One tick: the game's step on the world, then the publish of the new state into the back slot (the writer's
 * flip under the lock), with the counters and the NaN scan around it.
 */
import { timeOfTick } from '../core/fixed-step.ts';
import { I32, META, STATUS } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { checkFinite } from './finite-check.ts';
import type { Attached, SimulationState } from './state.ts';

/** Most clock reads of the last spin inside a tick (about a few ms of them: a clock that stands still gives up). */
const SPIN_GUARD = 100_000;

/**
 * Runs one tick and publishes it; with `step` false, publishes the world as it stands as the next tick (a
 * restart, a restore, a playback's start; `snapAll`: with every entity snapping to it, generations untouched).
 * A tick the loop runs a few µs before it is due spins to `notBefore` right before the step. While a recording
 * plays, the step is the recording's (worker/playback.ts). Returns false, publishing nothing, if the game's step
 * threw (it faults) or a playback ran out (it pauses).
 */
export function runTick<S extends Schema>(state: SimulationState<S>, a: Attached<S>, step = true, notBefore = Number.NEGATIVE_INFINITY, snapAll = false): boolean {
  const { timeline, world, clock } = a;
  const counters = state.counters;
  const previousTick = timeline.tick;
  const previousTime = timeOfTick(timeline);
  // snapAll: every entity is new to the page (PREV_COUNT 0), so each is drawn at this state, not blended into it
  const previousCount = snapAll ? 0 : world.world.count;
  const dt = 1 / state.tickRate;
  const info = state.tickInfo!;
  info.tick = previousTick + 1;
  info.dt = dt;
  info.time = (state.simTime + dt * 1000) / 1000;
  info.previousAt = previousTime;
  info.at = timeOfTick(timeline, previousTick + 1);
  let started = clock();
  try {
    if (step) {
      // spinning to the due instant right before the step takes its input and runs (bounded: a clock that does
      // not move gives up)
      const spinFrom = started;
      for (let n = 0; started < notBefore && n < SPIN_GUARD; n++) started = clock();
      counters.spunMs += started - spinFrom;
      // the events that happened up to this tick's time, and any that came too late for the ticks before
      counters.lateInputs += a.input.fill(previousTime, info.at);
      if (state.playback !== null) {
        // a recording plays: its next tick's step, on its recorded times and events (the page's are left)
        if (!state.playback.step()) {
          // its end: the last recorded state stays on screen, paused, and play() has its report
          state.endPlayback();
          state.setStatus(STATUS.PAUSED);
          state.generation++;
          return false;
        }
      } else {
        counters.inputs += a.input.length;
        // the world as it stands is the state at previousAt: the newest the step may rewind to
        state.rewind?.begin(info.previousAt, world.world.count);
        state.definition.step(world.world, info);
      }
    } else {
      // the world made anew (a restart, a restore, a playback's start): no state before it is this world's past
      state.rewind?.reset();
    }
  } catch (error) {
    // the tick never happened: its events go with it
    a.transport.events?.abandon();
    state.recorder?.tick(info.at, info.previousAt, a.input, true);
    const e = error instanceof Error ? error : new Error(String(error));
    state.error = { message: e.message, stack: e.stack };
    state.setStatus(STATUS.FAULTED);
    state.generation++;
    return false;
  } finally {
    state.rewind?.end();
  }
  const took = clock() - started;
  counters.lastStepMs = took;
  if (took > counters.maxStepMs) counters.maxStepMs = took;
  if (step && state.playback === null) {
    state.simTime += dt * 1000;
    state.stepsSinceInit++;
    // the state the step made, before any NaN hold (what a replay's step makes again)
    state.recorder?.tick(info.at, info.previousAt, a.input);
  }
  if (state.settings.nonFinite !== 'off') {
    const last = state.settings.nonFinite === 'hold' ? a.views.slots[a.writer.front].current : null;
    const found = checkFinite(a.views.layout, world.world.fields, world.world.count, last, a.writer.frontMeta(META.COUNT));
    if (found > 0) {
      counters.nonFiniteValues += found;
      counters.nonFiniteTicks++;
    }
  }
  timeline.tick = previousTick + 1;
  // a beat per tick as well as per HEARTBEAT_MS: a loop that ticks is alive, whatever its timers do
  Atomics.add(a.views.i32, I32.HEARTBEAT, 1);
  fillMeta(state, a, previousTick, previousTime, previousCount, world.takeSnaps());
  // false: the page held the lock too long (a reader stall, counted); the next publish carries the world on
  if (a.writer.publish(state.meta)) {
    a.transport.published(a.writer.front);
    world.published(); // the private fields as of this state, for restart('last')
    state.random.save(state.randomAtPublish); // and the generator
  }
  return true;
}

/** Stamps the publish's meta: the pair's ticks, times and counts, the simulated time, the scale, the snaps, the inputs consumed. */
export function fillMeta<S extends Schema>(state: SimulationState<S>, a: Attached<S>, previousTick: number, previousTime: number, previousCount: number, snaps: number): void {
  const meta = state.meta;
  meta.previousTick = previousTick;
  meta.currentTick = a.timeline.tick;
  meta.previousTime = previousTime;
  meta.currentTime = timeOfTick(a.timeline);
  meta.count = a.world.world.count;
  meta.previousCount = previousCount;
  meta.simTime = state.simTime;
  meta.scale = state.timeScale;
  meta.snaps = snaps;
  meta.inputsThrough = a.input.through;
}
