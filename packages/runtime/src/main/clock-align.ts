/** Clock alignment at set-up: the worker's shared clock measured against the page's, and corrected. */
import type { Remote } from 'comlink';
import type { Clock } from '../core/clock.ts';
import type { ClockSkew } from '../contracts/frames.ts';
import type { SimulationRemote } from '../contracts/remote.ts';

export type { ClockSkew } from '../contracts/frames.ts';

/**
 * Each realm's `performance.timeOrigin` is taken separately, and they can disagree (by milliseconds after a
 * laptop sleep). Measures the worker's clock against the page's with a few round trips, keeps the one with the
 * shortest trip, and corrects the worker's clock when the gap is bigger than the measurement's own error.
 */
export async function alignClocks(remote: Remote<SimulationRemote>, now: Clock): Promise<ClockSkew> {
  let best = { skew: 0, uncertainty: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 5; i++) {
    const before = now();
    const worker = await remote.clockProbe();
    const after = now();
    const uncertainty = (after - before) / 2;
    if (uncertainty < best.uncertainty) best = { skew: worker - (before + after) / 2, uncertainty };
  }
  if (Math.abs(best.skew) > best.uncertainty) await remote.setClockOffset(best.skew);
  return best;
}
