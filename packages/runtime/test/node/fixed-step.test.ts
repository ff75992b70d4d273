import { describe, expect, it } from 'vitest';
import {
  alphaAt,
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

describe('the worked timeline of source note 003', () => {
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
