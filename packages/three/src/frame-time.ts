/** The time a mesh's `update()` brings it to when given none: shared by the WebGL and WebGPU GPU paths. */
import type { Runtime, Schema } from 'steadyframe';

/** The time of the runtime's newest paced frame, or now for a runtime that has none. */
export function frameTime(runtime: Partial<Pick<Runtime<Schema>, 'frameTime'>>): number {
  const time = runtime.frameTime;
  return time === undefined || Number.isNaN(time) ? performance.now() : time;
}
