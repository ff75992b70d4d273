/**
 * The simulation loop (ARCHITECTURE.md, "The loop"). Each time it wakes:
 *   1. reads when the main thread expects its next frame (NEXT_FRAME);
 *   2. runs ticks until the newest state is just past that time, at most `maxLeadTicks` ahead of the wall
 *      clock (on a frameless host with no frame expected, none ahead by default: settings.ts, `leadTicks`) and at
 *      most `maxCatchUpSteps` in one go, yielding to its event loop every BURST_MS of them; backlog beyond that
 *      follows the `backlog` policy;
 *   3. asks `decideLoop` what next: plan again, yield, run a tick due within the warm-up, or sleep on the
 *      FRAME_SEQ doorbell until the next frame is published, the next tick falls due, or a control call rings
 *      it. The worker's event loop stays free while it sleeps, so comlink calls are served at once, and an
 *      idle, paused or hidden simulation burns no CPU.
 * What the loop decides is pure (core/fixed-step.ts); how it sleeps is the host's (contracts/host.ts).
 */
import {
  BURST_MS,
  burstBudget,
  decideLoop,
  endOfPass,
  FRAME_HOLD_MS,
  frameExpected,
  LOOP_ACTION,
  loopSpin,
  nextWakeTime,
  planSteps,
  settleBacklogAfter,
  settleBacklogBefore,
  stepTarget,
  TICK_EPSILON_MS,
  ticksOnTimeAt,
  timeOfTick,
  type LoopBurst,
  type LoopPass,
} from '../core/fixed-step.ts';
import { readNextFrame, writeCovered } from '../core/doorbell.ts';
import { I32 } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { leadTicks } from './settings.ts';
import type { SimulationState } from './state.ts';
import { runTick } from './tick.ts';

/** A timed wake this much past its plan counts in `lateWakes`, ms: a loaded machine's scheduling, not the host's staging. */
const LATE_WAKE_MS = 1;

/** Runs the loop until `state.generation` moves past `generation` (a pause, a stop, a fault, a hidden page). */
export async function runLoop<S extends Schema>(state: SimulationState<S>, generation: number): Promise<void> {
  const a = state.attached!;
  const host = a.host;
  host.loopStarted?.();
  try {
    await loop(state, generation);
  } finally {
    host.loopEnded?.();
  }
}

async function loop<S extends Schema>(state: SimulationState<S>, generation: number): Promise<void> {
  const a = state.attached!;
  const { host, timeline } = a;
  const { i32 } = a.views;
  const { settings, counters, plan } = state;
  const burst: LoopBurst = { ran: 0 };
  const pass: LoopPass = { wait: 0, busy: false, steps: 0, replans: 0, sinceYield: 0, spin: 0, canBlock: host.blockSync !== undefined };
  let lastYield = a.clock();
  let nextFrame = 0;
  let maxLead = 0;
  let wakeAt = 0;
  // asked only on the warm-up path: would a tick planned at the wake run then, on time?
  const ticksOnTime = (): boolean => ticksOnTimeAt(timeline, wakeAt + TICK_EPSILON_MS, nextFrame, maxLead, state.probe);
  while (generation === state.generation) {
    // read the doorbell before the frame time, so a frame published after this read cuts the sleep short
    const doorbell = Atomics.load(i32, I32.FRAME_SEQ);
    nextFrame = readNextFrame(a.views);
    let now = a.clock();
    // the lead is for frames: a frameless host (a server) with none expected runs each tick at its time
    maxLead = leadTicks(settings, a.frameless, frameExpected(now, nextFrame, FRAME_HOLD_MS)) * timeline.tickLength;
    const target = stepTarget(now, nextFrame, FRAME_HOLD_MS);
    // holding for an overdue frame falls behind the wall clock on purpose: that is not backlog to drop
    if (target >= now) state.countDrop(settleBacklogBefore(settings.backlog, timeline, now));
    const budget = burstBudget(burst, state.maxCatchUpSteps);
    planSteps(timeline, now, target, budget, maxLead, plan);
    // the ticks, back to back for at most BURST_MS (the first always runs): a slow step's catch-up goes on
    // after a turn of the event loop, so comlink calls and the heartbeat wait at most a step and a few ms
    let ran = 0;
    while (ran < plan.steps) {
      if (!runTick(state, a)) return;
      ran++;
      if (ran < plan.steps && a.clock() - now > BURST_MS) break;
    }
    const end = endOfPass(burst, plan, ran, budget);
    if (end.settle) {
      now = a.clock();
      state.countDrop(settleBacklogAfter(settings.backlog, timeline, now, settings.maxBacklog));
    }
    wakeAt = end.busy ? now : nextWakeTime(timeline, target, maxLead, now, FRAME_HOLD_MS);
    const clockNow = a.clock();
    pass.wait = wakeAt - clockNow;
    pass.busy = end.busy;
    pass.steps = ran;
    pass.sinceYield = clockNow - lastYield;
    // at most half a tick of spinning, whatever spinMs asks: the rest of the wait sleeps or blocks
    pass.spin = loopSpin(settings.spinMs, timeline.tickLength);
    const action = decideLoop(pass, ticksOnTime);
    if (action === LOOP_ACTION.REPLAN) {
      pass.replans++;
      continue;
    }
    if (ran > 0) pass.replans = 0;
    if (action === LOOP_ACTION.YIELD) {
      await host.yieldToEvents();
      lastYield = a.clock();
      continue;
    }
    if (action === LOOP_ACTION.TICK_EARLY) {
      // spinning inside the tick to its due instant, right before the step (nothing else in between)
      if (!runTick(state, a, true, wakeAt + TICK_EPSILON_MS)) return;
      continue;
    }
    counters.sleeps++;
    // the newest state's time: frames up to it need not wake us (the wake planned here comes in time for them)
    writeCovered(a.views, timeOfTick(timeline));
    // a short wait synchronously where the host can (no promise on the precise path), else asynchronously
    const report = host.blockSync?.(i32, I32.FRAME_SEQ, doorbell, pass.wait, pass.spin) ?? (await host.sleep(i32, I32.FRAME_SEQ, doorbell, pass.wait, pass.spin));
    writeCovered(a.views, Number.NEGATIVE_INFINITY);
    // a wake the doorbell did not cut short: how late after the planned time did this thread run again?
    if (Atomics.load(i32, I32.FRAME_SEQ) === doorbell) {
      const late = a.clock() - wakeAt;
      if (late > LATE_WAKE_MS) counters.lateWakes++;
      if (late > counters.maxWakeLateMs) counters.maxWakeLateMs = late;
    }
    counters.spunMs += report.spunMs;
    if (report.yielded) lastYield = a.clock();
    pass.replans = 0;
  }
}
