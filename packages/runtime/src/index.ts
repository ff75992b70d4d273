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
export type { ClockSkew, Frame, Runtime, RuntimeEvents, RuntimeOptions, RuntimeStats } from './main/runtime.ts';
export { createRenderWorkerRuntime, renderWorkerUnavailable } from './main/render-worker-runtime.ts';
export type { RenderWorkerRuntime, RenderWorkerRuntimeOptions, RenderWorkerRuntimeStats } from './main/render-worker-runtime.ts';
export type { RenderContext, Renderer, RendererSetup } from './render-worker/renderer.ts';
export type { InterpolationMode, InterpolationOptions, LatePolicy, SampleStats } from './main/sampler.ts';
export type { FrameClockStats } from './main/frame-loop.ts';
export type { PacerChange, PacerChangeReason } from './main/frame-pacer.ts';
export { documentVisibility, manualVisibility } from './main/visibility.ts';
export type { VisibilityHook } from './main/visibility.ts';
export { DelayedSmoother } from './core/smoother.ts';
export { defineSchema, schema2d, schema3d, INTERPOLATION_KINDS, MAX_FIELD_WIDTH } from './core/schema.ts';
export type { FieldSpec, FieldViews, InterpolationKind, Schema } from './core/schema.ts';
export type { SimulationInfo, SimulationRemote, SimulationStatus, TransportKind, WorkerStats } from './core/protocol.ts';
