/**
 * The GPU path's vertex blend, in GLSL (Babylon's WebGL 2 engine, blend-glsl.ts) and in WGSL (its WebGPU engine,
 * blend-wgsl.ts), as the code a material plugin injects into Babylon's own material shaders
 * (`interpolation-plugin.ts`). An instance's previous and current state are two buffers per channel: per-instance
 * attributes in GLSL, blocks of one storage buffer in WGSL; the GPU pair mirror's `flip` (a uniform here) says
 * which buffer holds the previous state.
 *
 * ```text
 *  CUSTOM_VERTEX_DEFINITIONS      uniforms sfAlpha, sfPrevCount, sfSnaps, sfFlip (sfCapacity); the state's buffers
 *  CUSTOM_VERTEX_UPDATE_POSITION  sfInterpolate()   per instance: snap? (spawned this tick, or a new generation)
 *                                                     position  mix(previous, current, alpha)
 *                                                     rotation  nlerp, current negated when dot < 0 (the shorter way)
 *                                                               or an angle about +z, the short way round
 *                                                     scale     mix(previous, current, alpha)
 *                                 positionUpdated = rotate(q, positionUpdated * scale) + position
 *  CUSTOM_VERTEX_UPDATE_NORMAL    normalUpdated = rotate(q, normalUpdated / scale)      (tangents: * scale)
 *  then Babylon's own: the thin instance's matrix (identity here) and the mesh's world matrix, lights, fog...
 * ```
 *
 * It is the same arithmetic as steadyframe's `interpolateField` kernels (and `@steadyframe/three`'s shader), in
 * float32, at any alpha: past 1 (a late frame under `whenLate: 'extrapolate'`) it carries the last tick's motion
 * on as the runtime's own blend does. Everything is inside `#ifdef SF_INSTANCES`: a mesh the plugin was not
 * given draws with the material as it was.
 */
import type { ResolvedTransformFields, TransformChannel } from 'steadyframe/adapter';
import { GLSL_DEFINITIONS } from './blend-glsl.ts';
import { WGSL_DEFINITIONS } from './blend-wgsl.ts';

/** The attribute names of a channel's two buffers (the GPU pair mirror's buffers 0 and 1). */
export function attributeNames(channel: TransformChannel): readonly [string, string] {
  const stem = `sf${channel.role[0]!.toUpperCase()}${channel.role.slice(1)}`;
  return [`${stem}0`, `${stem}1`];
}

/** The defines that pick the shader's variant for a mesh's fields (Babylon caches an effect per set of defines). */
export function variantDefines(fields: ResolvedTransformFields): { SF_POSITION: number; SF_ROTATION: number; SF_SCALE: number } {
  return {
    SF_POSITION: fields.position.width,
    SF_ROTATION: fields.rotation === null ? 0 : fields.rotation.kind === 'quaternion' ? 1 : 2,
    SF_SCALE: fields.scale?.width ?? 0,
  };
}

/** The uniforms a blended mesh sets on its effect each draw (floats: both languages take them alike). */
export const UNIFORMS = ['sfAlpha', 'sfPrevCount', 'sfSnaps', 'sfFlip', 'sfCapacity'] as const;

/** Babylon's injection points in its material vertex shaders, and what goes at each, for one language. */
export function vertexCode(wgsl: boolean): { [point: string]: string } {
  return {
    CUSTOM_VERTEX_DEFINITIONS: wgsl ? WGSL_DEFINITIONS : GLSL_DEFINITIONS,
    CUSTOM_VERTEX_UPDATE_POSITION: `
#ifdef SF_INSTANCES
sfInterpolate();
positionUpdated = sfRotate(sfBlendRotation, positionUpdated * sfBlendScale) + sfBlendPosition;
#endif
`,
    CUSTOM_VERTEX_UPDATE_NORMAL: `
#ifdef SF_INSTANCES
#ifdef NORMAL
normalUpdated = sfRotate(sfBlendRotation, normalUpdated / sfBlendScale);
#endif
#ifdef TANGENT
tangentUpdated = ${wgsl ? 'vec4f' : 'vec4'}(sfRotate(sfBlendRotation, tangentUpdated.xyz * sfBlendScale), tangentUpdated.w);
#endif
#endif
`,
  };
}
