/**
 * steadyframe: the main-thread side. Pair it with 'steadyframe/worker' in your simulation's module Worker.
 *
 * ```ts
 * import { createRuntime } from 'steadyframe';
 * import { schema } from './schema';
 * const runtime = await createRuntime({
 *   worker: new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' }),
 *   schema,
 *   capacity: 10_000,
 *   draw(frame) { ... frame.fields.position ... },
 * });
 * await runtime.start();
 * ```
 */
export { createRuntime, ISOLATION_REQUIRED } from './main/runtime.ts';
export type { Frame, Runtime, RuntimeOptions, RuntimeStats } from './main/runtime.ts';
export { createFramePeriod } from './main/frame-period.ts';
export type { FramePeriod } from './main/frame-period.ts';
export { defineSchema, schema2d, schema3d, schemaSignature, INTERPOLATION_KINDS, MAX_FIELD_WIDTH } from './core/schema.ts';
export type { FieldSpec, FieldViews, InterpolationKind, Schema } from './core/schema.ts';
export { computeLayout, ALIGN, DATA_OFFSET } from './core/layout.ts';
export type { FieldLayout, Layout, SharedViews, SlotViews } from './core/layout.ts';
export { angleField, interpolateField, lerpField, quaternionField, snapField, wrapAngle } from './core/interpolate.ts';
export { alphaAt } from './core/fixed-step.ts';
export { SlotReader } from './core/slots.ts';
export type { FlipStats, ReadLockStats, TestFault } from './core/slots.ts';
export type { SimulationInfo, SimulationRemote, SimulationStatus, WorkerStats } from './core/protocol.ts';
