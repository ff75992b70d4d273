// shared by the worker and the page; imports only the worker entry (no page code in the worker's bundle)
import { defineSchema } from 'steadyframe/worker';

/** Each body's centre, its turn (a quaternion) and its size, blended between ticks on the GPU. */
export const schema = defineSchema({
  position: { width: 3, kind: 'linear' },
  rotation: { width: 4, kind: 'quaternion' },
  scale: { width: 1, kind: 'linear' },
});
export type SwarmSchema = typeof schema;

/**
 * 30 ticks a second: half the display's rate, so that without a blend the bodies would step visibly every
 * other frame; the GPU blend draws them where the frame's time puts them.
 */
export const TICK_RATE = 30;
export const CAPACITY = 200_000;
/** Bodies the scene starts with (`?instances=N` overrides it). */
export const START_INSTANCES = 20_000;
/** Bodies one click or tap throws in. */
export const BURST = 2_000;
/** Input code of a burst (no payload: they start from the centre). */
export const INPUT_BURST = 1;
