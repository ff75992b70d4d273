/**
 * What most Node tests of the runtime stand on: a fixture worker (the motion one unless named) run by
 * `createNodeRuntime` on a manual clock that starts at START. Each file disposes what it made with
 * `afterEach(disposeRuntimes)`.
 */
import type { Runtime, Schema } from 'steadyframe';
import { createManualClock, createNodeRuntime, type ManualClock, type NodeRuntimeOptions } from 'steadyframe/node';
import type { MotionCommands } from '../../browser/fixtures/motion.worker.ts';
import { motionSchema } from '../../browser/fixtures/schemas.ts';
import { nodeFixture, type Fixture } from './worker-modules.ts';

/** The manual clock's time at creation, in ms. */
export const START = 1000;

export type MotionRuntime = Runtime<typeof motionSchema, MotionCommands>;

export type ManualRuntimeOptions = Omit<NodeRuntimeOptions<typeof motionSchema>, 'worker' | 'schema' | 'clock'> & {
  /** The fixture worker to run (default 'motion'). */
  readonly fixture?: Fixture;
};

const made = new Set<MotionRuntime>();

/** The fixture on a manual clock at START: its runtime, attached (not started), and the clock. */
export async function onManualClock(options: ManualRuntimeOptions): Promise<{ rt: MotionRuntime; clock: ManualClock }> {
  const { fixture = 'motion', ...rest } = options;
  const clock = createManualClock(START);
  const rt = await createNodeRuntime<typeof motionSchema, MotionCommands>({ ...rest, worker: await nodeFixture(fixture), schema: motionSchema, clock });
  made.add(rt);
  return { rt, clock };
}

/** Disposes every runtime `onManualClock` made (disposing one twice does nothing). */
export function disposeRuntimes(): void {
  for (const rt of made) rt.dispose();
  made.clear();
}

/**
 * Moves the clock to `t` (the worker settles there), then lets the states it posted arrive: on the message
 * transport they are messages to this thread, which a browser delivers between frames and which the clock's
 * promises alone do not let in. Turns of the event loop until no new state came in one.
 */
export async function advanceAndReceive(rt: Pick<Runtime<Schema>, 'transport' | 'reader'>, clock: ManualClock, t: number): Promise<void> {
  await clock.advanceTo(t);
  if (rt.transport !== 'message') return;
  for (;;) {
    const before = rt.reader.publishCount();
    await new Promise((resolve) => setImmediate(resolve));
    if (rt.reader.publishCount() === before) return;
  }
}
