/**
 * steadyframe/adapter: for renderers and tools that read the published states themselves (`runtime.reader`)
 * rather than the runtime's interpolated `Frame`: `@steadyframe/three`, `@steadyframe/pixi` and
 * `@steadyframe/phaser` are built on it. A game needs none of this; its API is 'steadyframe'.
 *
 * A GPU path is a backend of the pair mirror plus its shader: the mirror decides what to upload, when, and counts
 * it; the backend owns two buffers per channel and copies into them (`createGpuPairTracker`, the mirror's own
 * tracker, is here too for a renderer that uploads its own way).
 *
 * ```ts
 * import { createGpuPairMirror, GENERATIONS } from 'steadyframe/adapter';
 * const channels = [{ field: 'position', width: 2 }, GENERATIONS];
 * const buffers = channels.map((c) => [buffer(capacity * c.width), buffer(capacity * c.width)]); // yours
 * const stats = { fullUploads: 0, swaps: 0, generationUploads: 0, misses: 0, late: 0, extrapolated: 0, overtaken: 0 };
 * const mirror = createGpuPairMirror({ channels, table: null, capacity, stats }, {
 *   allocate(entities) { ... }, // grow every buffer (only when initialCapacity is below the capacity)
 *   copy(k, b, from, offset, elements) {
 *     gl.bindBuffer(gl.ARRAY_BUFFER, buffers[k][b]); // under the lock: straight from the shared memory
 *     gl.bufferSubData(gl.ARRAY_BUFFER, 0, from, offset, elements);
 *   },
 * });
 * // each frame, after runtime.pace():
 * mirror.read(runtime.reader);
 * gl.uniform1f(uAlpha, mirror.place(runtime.frameTime, runtime.interpolation)); // late, overtaken: counted
 * gl.uniform1f(uFlip, mirror.flip); // buffer flip holds the previous state; also mirror.previousCount, snaps
 * gl.drawArrays(gl.POINTS, 0, mirror.count);
 * ```
 *
 * @module steadyframe/adapter
 */
export { createGpuPairMirror, GENERATIONS } from './gpu-pair-mirror.ts';
export type { GpuMirrorBackend, GpuMirrorStats, GpuPairMirror, GpuPairMirrorOptions, MirrorBuffer, MirrorChannel } from './gpu-pair-mirror.ts';
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
export { QUAD_CORNERS, QUAD_INDICES, QUAD_SPRITE_UNIFORMS, quadSpriteShader } from './quad-sprites.ts';
export type { QuadSpriteHost } from './quad-sprites.ts';
export type { BindingPose, FieldOf, PoseFieldNames, PoseFields, ResolvedPoseFields } from './pose-2d.ts';
export { resolveBindingTransform, resolveTransformFields, transformChannels } from './pose-3d.ts';
export type { BindingTransform, FieldOfKind, ResolvedTransformFields, TransformChannel, TransformFields } from './pose-3d.ts';
export { readTransform, transformViews, writeMatrix } from './transform-3d.ts';
export type { TransformViews } from './transform-3d.ts';
export { angleField, extrapolateField, interpolateField, lerpField, quaternionField, snapField, wrapAngle } from '../core/interpolate.ts';
