/**
 * steadyframe: the main-thread side. Pair it with 'steadyframe/worker' in your simulation's module Worker
 * ('steadyframe/node' runs the same module headless in Node; 'steadyframe/adapter' is for renderer bindings).
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
 *
 * @module steadyframe
 */
export { createRuntime } from './main/runtime.ts';
export { ISOLATION_REQUIRED, SHARED_MEMORY_OFF } from './hosts/browser-page.ts';
export type { ClockSkew } from './main/clock-align.ts';
export type { Frame, FrameClockStats, PresentedFrame, Runtime, RuntimeEvents, RuntimeOptions, RuntimeOptionsBase, RuntimeStats, SetupOption } from './contracts/app.ts';
export { createRenderWorkerRuntime, renderWorkerUnavailable } from './main/render-worker-runtime.ts';
export type { RenderWorkerRuntime, RenderWorkerRuntimeOptions, RenderWorkerRuntimeStats } from './contracts/render.ts';
export type { RenderContext, Renderer, RendererSetup } from './render-worker/renderer.ts';
export type { InterpolationMode, InterpolationOptions, LatePolicy, SampleStats } from './main/sampler.ts';
export type { PacerChange, PacerChangeReason } from './main/frame-pacer.ts';
export { manualVisibility } from './main/visibility.ts';
export { documentVisibility } from './hosts/browser-page.ts';
export type { VisibilityHook } from './contracts/host.ts';
export type { Transport } from './contracts/transport.ts';
export { DelayedSmoother } from './core/smoother.ts';
export { defineSchema, schema2d, schema3d, INTERPOLATION_KINDS, MAX_FIELD_WIDTH } from './core/schema.ts';
export type { EntityField, EntityFieldSpec, FieldSpec, FieldViews, GameField, GameFieldSpec, GameState, InterpolationKind, Schema, TableCountSpec } from './core/schema.ts';
export type { BitsQuantize, Quantize, RangeQuantize } from './core/quantize.ts';
export { MAX_QUANTIZE_BITS, MAX_QUATERNION_BITS } from './core/quantize.ts';
export { defineTables, tablesCapacity } from './core/tables.ts';
export type { GameSpecs, TableFieldName, TableName, TableSpec, TableSpecs, TablesSchema, TableViews } from './core/tables.ts';
export type { FrameTable, FrameTables } from './contracts/frames.ts';
export { createHandlePool } from './main/handle-pool.ts';
export type { HandlePool, HandlePoolOptions, HandleSource } from './main/handle-pool.ts';
export type { AttachConfig, RecordOptions, ReplayDifference, ReplayReport, ReplayTrap, SimulationInfo, SimulationRemote, SimulationStatus, TransportKind, WorkerStats } from './contracts/remote.ts';
export type { SessionControls } from './contracts/recording.ts';
export { EVENTS_LOST, DEFAULT_EVENT_CAPACITY, DEFAULT_EVENT_PAYLOAD_WIDTH } from './core/event-ring.ts';
export type { EventVisitor, FrameEvents, GameEvent } from './core/event-reader.ts';
