// shared by the worker and the page; imports only the worker entry (no page code in the worker's bundle)
import { defineSchema } from 'steadyframe/worker';

/** Rapier's poses land in `position` and `rotation` (@steadyframe/rapier's copy pass). */
export const schema = defineSchema({
  position: { width: 3, kind: 'linear' },
  rotation: { width: 4, kind: 'quaternion' },
});
export type BodiesSchema = typeof schema;
export const CAPACITY = 12_000;
/** Bodies the scene starts with (`?bodies=N` overrides it). */
export const START_BODIES = 1000;
/** Bodies one click drops. */
export const HEAP = 200;
