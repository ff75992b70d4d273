/**
 * The interpolation options (`createRuntime`'s `interpolation`, `runtime.setInterpolation`) and their set-up
 * checks. The sampler (sampler.ts) applies them; the runtime checks them before it builds anything.
 */
import { describeValue } from '../core/describe-value.ts';
import type { InterpolationOptions } from '../contracts/frames.ts';
import type { Schema } from '../core/schema.ts';

export type { InterpolationOptions } from '../contracts/frames.ts';


/** The largest `renderDelay`, in ticks: the history (history.ts, HISTORY_DEPTH) is sized for it. */
const MAX_RENDER_DELAY = 2;

/** Throws, naming the option and what it takes, for a bad value: at set-up and in `setInterpolation`, never per frame. */
export function validateInterpolation<S extends Schema>(schema: S, options: InterpolationOptions<S>): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`steadyframe: interpolation options must be an object, e.g. { mode: 'interpolate' }; got ${describeValue(options)}`);
  }
  const { mode, renderDelay, whenLate, maxPrediction, snapDistance } = options;
  if (mode !== undefined && mode !== 'interpolate' && mode !== 'extrapolate' && mode !== 'latest') {
    throw new RangeError(`steadyframe: interpolation mode must be 'interpolate', 'extrapolate' or 'latest'; got ${describeValue(mode)}`);
  }
  if (renderDelay !== undefined && !(typeof renderDelay === 'number' && renderDelay >= 0 && renderDelay <= MAX_RENDER_DELAY)) {
    throw new RangeError(`steadyframe: renderDelay is in ticks, from 0 to ${MAX_RENDER_DELAY}; got ${describeValue(renderDelay)}`);
  }
  if (whenLate !== undefined && whenLate !== 'hold' && whenLate !== 'extrapolate') {
    throw new RangeError(`steadyframe: whenLate must be 'hold' or 'extrapolate'; got ${describeValue(whenLate)}`);
  }
  if (maxPrediction !== undefined && !(typeof maxPrediction === 'number' && maxPrediction >= 0 && Number.isFinite(maxPrediction))) {
    throw new RangeError(`steadyframe: maxPrediction is a finite number of ticks, at least 0; got ${describeValue(maxPrediction)}`);
  }
  if (snapDistance !== undefined && snapDistance !== null) {
    if (typeof snapDistance !== 'object') {
      throw new RangeError(`steadyframe: snapDistance must be { field, distance } or null; got ${describeValue(snapDistance)}`);
    }
    const field = typeof snapDistance.field === 'string' && Object.hasOwn(schema, snapDistance.field) ? schema[snapDistance.field] : undefined;
    if (field === undefined || field.kind !== 'linear') {
      throw new RangeError(`steadyframe: snapDistance.field must name a linear field of the schema; got ${describeValue(snapDistance.field)}`);
    }
    const { distance } = snapDistance;
    if (!(typeof distance === 'number' && distance > 0 && Number.isFinite(distance))) {
      throw new RangeError(`steadyframe: snapDistance.distance must be a finite number above 0; got ${describeValue(distance)}`);
    }
  }
}
