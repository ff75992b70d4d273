/**
 * steadyframe/adapter: for renderers and tools that read the published states themselves (`runtime.reader`)
 * rather than the runtime's interpolated `Frame`: `@steadyframe/three` and `@steadyframe/pixi` are built on it.
 * A game needs none of this; its API is 'steadyframe'.
 *
 * ```ts
 * import { createGpuPairTracker, type StatePair } from 'steadyframe/adapter';
 * const tracker = createGpuPairTracker();
 * const upload = (pair: StatePair<typeof schema>, publishCount: number) => {
 *   const what = tracker.track(pair, publishCount); // under the lock: copy out of the pair now
 *   if (what === 'full') copyPrevious(pair.previous);
 *   if (what === 'swap') swapBuffers(); // the current state on the GPU becomes the previous one
 *   if (what !== 'none') copyCurrent(pair.current);
 * };
 * // each frame, after runtime.pace():
 * runtime.reader.read(upload);
 * alphaUniform.value = tracker.place(runtime.frameTime, runtime.interpolation); // late, overtaken: counted
 * ```
 */
export { createGpuPairTracker } from './gpu-pair-tracker.ts';
export type { GpuFrameStats, GpuPairTracker, LateOptions, PairUpload, TrackedPair } from './gpu-pair-tracker.ts';
export { countOf, currentTimeOf, previousCountOf, previousTickOf, previousTimeOf, simSecondsOf, snapsOf, tickOf, timeScaleOf } from './pair-words.ts';
export type { PairMeta } from './pair-words.ts';
export { clockAnchorOf, heartbeatOf, overloadsOf, publishCountOf, readerStallsOf, statusOf } from './header-words.ts';
export type { HeaderViews } from './header-words.ts';
export type { StateReader } from '../main/state-reader.ts';
export { createPlacement, placeFrame } from '../core/frame-placement.ts';
export type { Placement, PlacementPolicy } from '../core/frame-placement.ts';
export { alphaAt } from '../core/fixed-step.ts';
export { computeLayout, ALIGN, DATA_OFFSET, META } from '../core/layout.ts';
export type { FieldLayout, Layout, SharedViews, SlotViews, StatePair } from '../core/layout.ts';
export { schemaField, schemaSignature } from '../core/schema.ts';
export { framePresenter } from './frame-draw.ts';
export { bindingTable, frameSource } from './table-source.ts';
export type { BindingTable } from './table-source.ts';
export type { TableLayout } from '../core/layout.ts';
export type { FrameDraw, TimedDrawable } from './frame-draw.ts';
export { NO_VIEW, PoseViews, resolveBindingPose, resolvePoseFields, viewOf } from './pose-2d.ts';
export { createTableObjects } from './table-objects.ts';
export type { TableObjects, TableObjectsOptions, TableSchema } from './table-objects.ts';
export { angleModeOf, pointSpriteFragmentShader, pointSpriteLayout, pointSpriteVertexShader } from './point-sprites.ts';
export type { AngleMode, GlslDialect, PointSpriteHost, PointSpriteOptions } from './point-sprites.ts';
export type { BindingPose, FieldOf, PoseFieldNames, PoseFields, ResolvedPoseFields } from './pose-2d.ts';
export { angleField, extrapolateField, interpolateField, lerpField, quaternionField, snapField, wrapAngle } from '../core/interpolate.ts';
