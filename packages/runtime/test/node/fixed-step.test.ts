import { describe, expect, it } from 'vitest';
import {
  alphaAt,
  burstBudget,
  decideLoop,
  endOfPass,
  LOOP_ACTION,
  loopSpin,
  MAX_REPLANS,
  ticksOnTimeAt,
  WARM_UP_MS,
  YIELD_EVERY_MS,
  type LoopAction,
  type LoopBurst,
  type LoopPass,
  createTimeline,
  defaultMaxCatchUpSteps,
  dropBacklog,
  nextWakeTime,
  planSteps,
  reanchor,
  stepTarget,
  timeOfTick,
  type StepPlan,
} from '../../src/core/fixed-step.ts';

const plan = (): StepPlan => ({ steps: 0, overloaded: false });
const INF = Number.POSITIVE_INFINITY;

describe('the worked timeline (ARCHITECTURE.md, Source notes)', () => {
  // render 3 ms, update 1 ms, fixed step 5 ms, render interval 16 ms, all on a clock we move by hand
  it('updates to 5, 10, 15, 20, waits, renders at 16 with proportion 0.2, then 25, 30, 35, renders at 32', () => {
    const RENDER = 3;
    const UPDATE = 1;
    const INTERVAL = 16;
    const timeline = createTimeline(0, 0, 5);
    const p = plan();
    const events: string[] = [];
    const proportions: number[] = [];
    let clock = 0;
    let previousTime = 0;
    let proportion = alphaAt(0, 0, 0); // nothing simulated yet: 100% current state
    for (let frame = 0; frame < 3; frame++) {
      const frameStart = clock;
      events.push(`R${frameStart}`);
      proportions.push(proportion);
      clock += RENDER;
      const frameEnd = frameStart + INTERVAL;
      // the note re-checks after every update: plan one step at a time
      for (;;) {
        planSteps(timeline, clock, stepTarget(clock, frameEnd), 1, Number.POSITIVE_INFINITY, p);
        if (p.steps === 0) break;
        previousTime = timeOfTick(timeline);
        timeline.tick++;
        clock += UPDATE;
        events.push(`U${timeOfTick(timeline)}`);
      }
      events.push(`W${frameEnd}`);
      clock = frameEnd;
      proportion = alphaAt(frameEnd, previousTime, timeOfTick(timeline));
    }
    expect(events.join(' ')).toBe('R0 U5 U10 U15 U20 W16 R16 U25 U30 U35 W32 R32 U40 U45 U50 W48');
    expect(proportions).toEqual([1, 0.2, 0.4]);
  });

  it('plans the same four updates in one go', () => {
    const p = planSteps(createTimeline(0, 0, 5), 3, 16, 100, INF, plan());
    expect(p).toEqual({ steps: 4, overloaded: false });
  });
});

describe('fixed-step core', () => {
  it('steps until just past the target, not further', () => {
    const timeline = createTimeline(10, 100, 5);
    expect(planSteps(timeline, 100, 100, 99, INF, plan()).steps).toBe(0); // exactly at the target: done
    expect(planSteps(timeline, 100, 100.001, 99, INF, plan()).steps).toBe(1);
    expect(planSteps(timeline, 100, 105, 99, INF, plan()).steps).toBe(1);
    expect(planSteps(timeline, 100, 105.5, 99, INF, plan()).steps).toBe(2);
  });

  it('caps catch-up steps and reports overload as data, not a throw', () => {
    const timeline = createTimeline(0, 0, 5);
    const p = planSteps(timeline, 1000, 1000, 8, INF, plan());
    expect(p).toEqual({ steps: 8, overloaded: true });
    timeline.tick += p.steps;
    expect(timeOfTick(timeline)).toBe(40);
    expect(dropBacklog(timeline, 1000)).toBe(960);
    expect(timeOfTick(timeline)).toBe(1000);
    expect(timeline.tick).toBe(8); // ticks are never skipped, only time
    expect(dropBacklog(timeline, 999)).toBe(0);
  });

  it('does not call running ahead for the next frame an overload', () => {
    // 20 steps to the next frame, cap 8, but the wall clock is already covered after 8
    const p = planSteps(createTimeline(0, 0, 1), 3, 20, 8, INF, plan());
    expect(p).toEqual({ steps: 8, overloaded: false });
  });

  it('aims at the next frame, or the wall clock when there is none', () => {
    expect(stepTarget(100, 116)).toBe(116);
    expect(stepTarget(100, 90)).toBe(100); // a stale frame time: keep up with the wall clock only
    expect(stepTarget(100, 0)).toBe(100); // none published yet
  });

  it('waits for an overdue frame for a while instead of overtaking it', () => {
    expect(stepTarget(100, 80, 50)).toBe(80); // its callback is late; it will draw at 80
    expect(stepTarget(100, 40, 50)).toBe(100); // 60 ms overdue: no frame is coming, follow the clock
    const timeline = createTimeline(4, 85, 5); // already just past the overdue frame
    expect(nextWakeTime(timeline, 80, 10, 100, 50)).toBe(130); // not before the hold runs out (or a frame)
    expect(nextWakeTime(timeline, 116, 10, 100, 50)).toBe(80); // a frame ahead: as before (due at once)
  });

  it('never puts the newest state more than maxLead ahead of the wall clock', () => {
    const timeline = createTimeline(0, 100, 5);
    expect(planSteps(timeline, 100, 500, INF, 12, plan()).steps).toBe(2); // 110 <= 112 < 115
    expect(planSteps(timeline, 100, 500, INF, 0, plan()).steps).toBe(0);
    expect(planSteps(timeline, 104, 500, INF, 0, plan()).steps).toBe(0); // 105 would be ahead of 104
    expect(planSteps(timeline, 105, 500, INF, 0, plan()).steps).toBe(1);
  });

  it('wakes when the next tick is both due and allowed', () => {
    const timeline = createTimeline(4, 120, 5);
    expect(nextWakeTime(timeline, 116, 10)).toBe(120); // frame covered: when the wall clock passes the tick
    expect(nextWakeTime(timeline, 116, 2)).toBe(123); // ... and the lead cap lets the next one in
    expect(nextWakeTime(timeline, 200, 10)).toBe(115); // frame out of reach because of the lead cap
  });

  it('re-anchors without moving the current tick when the tick length changes', () => {
    const timeline = createTimeline(0, 0, 10);
    timeline.tick = 3;
    reanchor(timeline, timeOfTick(timeline), 5);
    expect(timeOfTick(timeline)).toBe(30);
    expect(timeOfTick(timeline, 5)).toBe(40);
  });

  it('computes alpha clamped to [0, 1]', () => {
    expect(alphaAt(16, 15, 20)).toBeCloseTo(0.2, 12);
    expect(alphaAt(10, 15, 20)).toBe(0);
    expect(alphaAt(30, 15, 20)).toBe(1);
    expect(alphaAt(30, 20, 20)).toBe(1);
  });

  it('defaults the catch-up cap to a quarter second of ticks, at least 4', () => {
    expect(defaultMaxCatchUpSteps(1000 / 240)).toBe(60);
    expect(defaultMaxCatchUpSteps(100)).toBe(4);
  });
});

describe('the loop decision after a pass (decideLoop, endOfPass)', () => {
  const base: LoopPass = { wait: 5, busy: false, steps: 1, replans: 0, sinceYield: 1, spin: 1, canBlock: true };
  const cases: Array<[string, Partial<LoopPass>, boolean, LoopAction]> = [
    ['a wait ahead, a turn not long ago: sleep', {}, true, LOOP_ACTION.SLEEP],
    ['on the due instant with no tick run: plan again at once', { wait: 0, steps: 0 }, true, LOOP_ACTION.REPLAN],
    ['... but not past MAX_REPLANS in a row: a clock standing still (a manual one) sleeps until it moves', { wait: 0, steps: 0, replans: MAX_REPLANS }, true, LOOP_ACTION.SLEEP],
    ['... unless the event loop is owed a turn: yield', { wait: 0, steps: 0, replans: MAX_REPLANS, sinceYield: YIELD_EVERY_MS + 0.1 }, true, LOOP_ACTION.YIELD],
    ['a tick just ran and the next is due now: yield (no zero-length sleep)', { wait: 0 }, true, LOOP_ACTION.YIELD],
    ['busy (cap or time bound hit): yield, whatever the wait', { busy: true, wait: 10 }, true, LOOP_ACTION.YIELD],
    ['busy on the due instant with no tick run: yield, not replan', { busy: true, wait: 0, steps: 0 }, true, LOOP_ACTION.YIELD],
    ['4 ms since the last turn, a long wait ahead: yield first', { sinceYield: YIELD_EVERY_MS + 0.1 }, true, LOOP_ACTION.YIELD],
    ['4 ms since the last turn, a tick due within the spin: defer the turn', { sinceYield: YIELD_EVERY_MS + 0.1, wait: 0.5 }, true, LOOP_ACTION.SLEEP],
    ['8 ms since the last turn: yield even with a tick due within the spin', { sinceYield: 2 * YIELD_EVERY_MS + 0.1, wait: 0.5 }, true, LOOP_ACTION.YIELD],
    ['due within the warm-up, a tick on time there, nothing ran: tick early', { wait: WARM_UP_MS, steps: 0 }, true, LOOP_ACTION.TICK_EARLY],
    ['... but no tick on time at the wake: sleep', { wait: WARM_UP_MS, steps: 0 }, false, LOOP_ACTION.SLEEP],
    ['... but a host that cannot block: sleep', { wait: WARM_UP_MS, steps: 0, canBlock: false }, true, LOOP_ACTION.SLEEP],
    ['... but a tick just ran: sleep (plan again after it)', { wait: WARM_UP_MS }, true, LOOP_ACTION.SLEEP],
    ['... but the wait is longer than the spin: sleep', { wait: WARM_UP_MS, steps: 0, spin: 0.01 }, true, LOOP_ACTION.SLEEP],
  ];
  for (const [label, change, onTime, expected] of cases) {
    it(label, () => {
      let asked = 0;
      expect(decideLoop({ ...base, ...change }, () => (asked++, onTime))).toBe(expected);
      // the probe plan is asked for only on the warm-up path
      if (expected !== LOOP_ACTION.TICK_EARLY && !(change.wait === WARM_UP_MS && change.steps === 0 && change.canBlock !== false)) {
        expect(asked).toBe(0);
      }
    });
  }

  it('counts a burst cut short by BURST_MS toward the catch-up cap, and settles the overload only at its end', () => {
    const burst: LoopBurst = { ran: 0 };
    const plan: StepPlan = { steps: 15, overloaded: true };
    // 2 of 15 ran before the time bound: busy, nothing settled, 13 left of the cap
    expect(burstBudget(burst, 15)).toBe(15);
    expect(endOfPass(burst, plan, 2, 15)).toEqual({ busy: true, settle: false });
    expect(burstBudget(burst, 15)).toBe(13);
    // the rest of the burst ran whole and is still behind: settle the backlog, the next burst starts afresh
    expect(endOfPass(burst, { steps: 13, overloaded: true }, 13, 13)).toEqual({ busy: true, settle: true });
    expect(burstBudget(burst, 15)).toBe(15);
    // a plan that reached its target (fewer steps than the cap): not busy
    expect(endOfPass(burst, { steps: 3, overloaded: false }, 3, 15)).toEqual({ busy: false, settle: false });
  });

  it('spins at most half a tick, 6% of a tick (at most 1 ms) by default', () => {
    expect(loopSpin(undefined, 50)).toBe(1);
    expect(loopSpin(undefined, 5)).toBeCloseTo(0.3);
    expect(loopSpin(20, 16)).toBe(8);
    expect(loopSpin(0, 16)).toBe(0);
  });

  it('asks whether a tick planned at an instant runs then, on time (not more than a tick behind)', () => {
    const timeline = createTimeline(0, 100, 10);
    const probe = plan();
    expect(ticksOnTimeAt(timeline, 105, 200, 20, probe)).toBe(true); // allowed by the lead
    expect(ticksOnTimeAt(timeline, 109.9, 200, 0, probe)).toBe(false); // the lead cap does not allow it yet
    expect(ticksOnTimeAt(timeline, 125, 200, 20, probe)).toBe(false); // more than a tick behind: the backlog policy first
  });
});
