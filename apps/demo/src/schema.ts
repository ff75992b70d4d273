import { schema2d } from 'steadyframe';

/** x, y and a rotation angle per body: the 2D preset, shared by the page and the worker. */
export const schema = schema2d;
/** Fixed for the runtime's life; the `bodies` control changes how many of them live. */
export const CAPACITY = 50_000;
export const DEFAULT_COUNT = 2000;
export const DEFAULT_TICK_RATE = 10;
