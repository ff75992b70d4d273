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
export type { ClockSkew, Frame, Runtime, RuntimeEvents, RuntimeOptions, RuntimeStats, StateReader } from './main/runtime.ts';
export { createRenderWorkerRuntime, renderWorkerUnavailable } from './main/render-worker-runtime.ts';
export type { RenderWorkerRuntime, RenderWorkerRuntimeOptions, RenderWorkerRuntimeStats } from './main/render-worker-runtime.ts';
export type { RenderContext, Renderer, RendererSetup } from './render-worker/renderer.ts';
export type { InterpolationMode, InterpolationOptions, LatePolicy, SampleStats } from './main/sampler.ts';
export type { FrameClockStats } from './main/frame-loop.ts';
export { createFramePacer, FRAME_PACER_DEFAULTS } from './main/frame-pacer.ts';
export type { FramePacer, FramePacerOptions, PacerChange, PacerChangeReason } from './main/frame-pacer.ts';
export { documentVisibility, manualVisibility } from './main/visibility.ts';
export type { VisibilityHook } from './main/visibility.ts';
export { DelayedSmoother } from './core/smoother.ts';
export { allocateInputRing, InputWriter, InputReader } from './core/input-ring.ts';
export type { InputEvent } from './core/input-ring.ts';
export { defineSchema, schema2d, schema3d, schemaField, schemaSignature, INTERPOLATION_KINDS, MAX_FIELD_WIDTH } from './core/schema.ts';
export type { FieldSpec, FieldViews, InterpolationKind, Schema } from './core/schema.ts';
export { computeLayout, ALIGN, DATA_OFFSET, META } from './core/layout.ts';
export type { FieldLayout, Layout, SharedViews, SlotViews, StatePair } from './core/layout.ts';
export { angleField, extrapolateField, interpolateField, lerpField, quaternionField, snapField, wrapAngle } from './core/interpolate.ts';
export { alphaAt } from './core/fixed-step.ts';
export type { BacklogPolicy } from './core/fixed-step.ts';
export type { FlipStats, ReadLockStats, ReadSlot, StateSource } from './core/slots.ts';
export type { SimulationInfo, SimulationRemote, SimulationStatus, TransportKind, WorkerStats } from './core/protocol.ts';
