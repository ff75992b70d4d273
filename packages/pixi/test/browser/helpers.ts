/** Shared by the PixiJS adapter's browser tests: a real worker on the motion fixture, stepped by hand. */
import { createRuntime, type Frame, type Runtime } from 'steadyframe';
import { motionSchema } from './fixtures/schema.ts';
import type { MotionCommands } from './fixtures/motion.worker.ts';

export type MotionRuntime = Runtime<typeof motionSchema, MotionCommands>;
export type MotionFrame = Frame<typeof motionSchema>;

/** A runtime on the motion fixture, attached (tick 0 published) and not started: tests step it by hand. */
export async function motionRuntime(capacity = 8): Promise<MotionRuntime> {
  return createRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('./fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    schema: motionSchema,
    capacity,
    pacing: { adaptive: false },
  });
}

/** Runs `n` ticks while the simulation is held. */
export async function steps(runtime: MotionRuntime, n: number): Promise<void> {
  for (let k = 0; k < n; k++) await runtime.stepOnce();
}

/** The shared-clock time at `alpha` between the newest pair's two states. */
export function timeAt(runtime: MotionRuntime, alpha: number): number {
  const f = runtime.sample(Number.POSITIVE_INFINITY);
  return f.previousTime + alpha * (f.currentTime - f.previousTime);
}
