import { describe, expect, it } from 'vitest';
import { createPlacement, placeFrame, type PlacementPolicy } from '../../src/core/frame-placement.ts';

const interpolate = (whenLate: 'hold' | 'extrapolate' = 'hold', maxPrediction = 1): PlacementPolicy => ({ mode: 'interpolate', whenLate, maxPrediction });
const extrapolate = (maxPrediction = 1): PlacementPolicy => ({ mode: 'extrapolate', whenLate: 'hold', maxPrediction });
const latest: PlacementPolicy = { mode: 'latest', whenLate: 'extrapolate', maxPrediction: 1 };

describe('placeFrame: where a frame falls against its pair of states', () => {
  // the pair: previous at 100 ms, current at 150 ms (tick 50 ms) unless a row says otherwise
  it.each([
    // policy,                         time, prev, cur, tick, alpha, late,  overtaken, extrapolated, ahead
    ['interpolate: between', interpolate(), 120, 100, 150, 50, 0.4, false, false, false, 0],
    ['interpolate: on the previous state', interpolate(), 100, 100, 150, 50, 0, false, false, false, 0],
    ['interpolate: on the current state', interpolate(), 150, 100, 150, 50, 1, false, false, false, 0],
    ['interpolate: late, held', interpolate(), 170, 100, 150, 50, 1, true, false, false, 0],
    ['interpolate: late, carried on', interpolate('extrapolate'), 170, 100, 150, 50, 1.4, true, false, true, 0],
    ['interpolate: late, carried on at most maxPrediction', interpolate('extrapolate', 0.5), 400, 100, 150, 50, 1.5, true, false, true, 0],
    ['interpolate: overtaken (before the previous state)', interpolate(), 58, 100, 150, 50, 0, false, true, false, 0],
    ['interpolate: overtaken, whenLate does not matter', interpolate('extrapolate'), 58, 100, 150, 50, 0, false, true, false, 0],
    ['interpolate: no span (tick 0, a held tick): current, never late', interpolate('extrapolate'), 170, 150, 150, 50, 1, false, false, false, 0],
    ['interpolate: no span, before it', interpolate(), 120, 150, 150, 50, 1, false, true, false, 0],
    ['extrapolate: from the previous state', extrapolate(), 120, 100, 150, 50, 0, false, false, false, 20],
    ['extrapolate: from the current state', extrapolate(), 170, 100, 150, 50, 1, true, false, false, 20],
    ['extrapolate: at most maxPrediction ticks', extrapolate(0.5), 400, 100, 150, 50, 1, true, false, false, 25],
    ['extrapolate: overtaken, from the previous state, predicting nothing', extrapolate(), 58, 100, 150, 50, 0, false, true, false, 0],
    ['extrapolate: no span, tick length from before', extrapolate(), 300, 150, 150, 50, 1, false, false, false, 50],
    ['latest: always the current state', latest, 120, 100, 150, 50, 1, false, false, false, 0],
    ['latest: late is still counted', latest, 170, 100, 150, 50, 1, true, false, false, 0],
    ['latest: never overtaken', latest, 58, 100, 150, 50, 1, false, false, false, 0],
  ] as const)('%s', (_name, policy, time, previousTime, currentTime, tickLength, alpha, late, overtaken, extrapolated, ahead) => {
    const out = createPlacement();
    expect(placeFrame(time, previousTime, currentTime, tickLength, policy, out)).toBe(out);
    expect(out.alpha).toBeCloseTo(alpha, 12);
    expect({ late: out.late, overtaken: out.overtaken, extrapolated: out.extrapolated }).toEqual({ late, overtaken, extrapolated });
    expect(out.ahead).toBeCloseTo(ahead, 12);
  });

  it('resets every answer of a previous frame (the sampler reuses one placement)', () => {
    const out = createPlacement();
    placeFrame(400, 100, 150, 50, interpolate('extrapolate'), out);
    expect(out).toMatchObject({ late: true, extrapolated: true });
    placeFrame(20, 100, 150, 50, extrapolate(), out);
    expect(out).toEqual({ alpha: 0, late: false, overtaken: true, extrapolated: false, ahead: 0 });
  });

  it('matches the worked timeline of ARCHITECTURE.md, Source notes: tick 5 ms, frame at 16 between 15 and 20', () => {
    expect(placeFrame(16, 15, 20, 5, interpolate(), createPlacement()).alpha).toBeCloseTo(0.2, 12);
  });
});
