/**
 * The GPU path's vertex-shader patch: any built-in three.js material (MeshStandardMaterial, MeshBasicMaterial,
 * the depth materials for shadows...) learns to place instance `gl_InstanceID` between its previous and
 * current state at the `sfAlpha` uniform, through `onBeforeCompile`.
 *
 * ```text
 *  main() { sfInterpolate();             per instance: snap? (spawned this tick, or a new generation)
 *                                          position  mix(prev, curr, alpha)
 *                                          rotation  nlerp, curr negated when dot < 0 (the shorter path)
 *                                                    or an angle about +z, the short way round
 *                                          scale     mix(prev, curr, alpha)
 *           ... <defaultnormal_vertex>   normals (and tangents) turned with the instance (normal / scale)
 *           ... <project_vertex>         transformed = rotate(q, transformed * scale) + position
 * ```
 *
 * It is the same arithmetic as steadyframe's `interpolateField` kernels, in float32, at any alpha: past 1 (a late
 * frame under `whenLate: 'extrapolate'`) it carries the last tick's motion on as the runtime's own blend does.
 */
import type { Material, WebGLProgramParametersWithUniforms } from 'three';
import type { ResolvedFields } from './fields.ts';

/** Attribute names the patched shader reads, previous and current. */
export const ATTRIBUTES = {
  position: ['sfPrevPosition', 'sfCurrPosition'],
  rotation: ['sfPrevRotation', 'sfCurrRotation'],
  scale: ['sfPrevScale', 'sfCurrScale'],
  generation: ['sfPrevGeneration', 'sfCurrGeneration'],
} as const;

/** The uniforms one interpolated mesh drives; shared by reference with every material it patches. */
export interface InstanceUniforms {
  /** Where the frame falls between the previous (0) and current (1) state. */
  readonly sfAlpha: { value: number };
  /** Live entities in the previous state: instances at or past it snap (they were spawned this tick). */
  readonly sfPrevCount: { value: number };
  /** 1: the pair's tick marked snaps (the runtime's SNAPS): the generations are on the GPU and compared; 0: not. */
  readonly sfSnaps: { value: number };
}

const DECLARATIONS = /* glsl */ `
// steadyframe: interpolated instances
uniform float sfAlpha;
uniform int sfPrevCount;
uniform int sfSnaps;
attribute vec3 sfPrevPosition;
attribute vec3 sfCurrPosition;
attribute uint sfPrevGeneration;
attribute uint sfCurrGeneration;
#if SF_ROTATION == 1
attribute vec4 sfPrevRotation;
attribute vec4 sfCurrRotation;
#elif SF_ROTATION == 2
attribute float sfPrevRotation;
attribute float sfCurrRotation;
#endif
#if SF_SCALE == 1
attribute float sfPrevScale;
attribute float sfCurrScale;
#elif SF_SCALE == 3
attribute vec3 sfPrevScale;
attribute vec3 sfCurrScale;
#endif
vec3 sfPosition;
vec4 sfRotation;
vec3 sfScale;
// v turned by the unit quaternion q
vec3 sfRotate( vec4 q, vec3 v ) {
	vec3 t = 2.0 * cross( q.xyz, v );
	return v + q.w * t + cross( q.xyz, t );
}
void sfInterpolate() {
	// spawned this tick (no previous state) or, when the tick marked snaps, a new generation (teleported): the
	// current state as it is (without marked snaps the generations are not even uploaded)
	bool snap = gl_InstanceID >= sfPrevCount || ( sfSnaps != 0 && sfPrevGeneration != sfCurrGeneration );
	sfPosition = snap ? sfCurrPosition : mix( sfPrevPosition, sfCurrPosition, sfAlpha );
#if SF_ROTATION == 1
	vec4 q1 = dot( sfPrevRotation, sfCurrRotation ) < 0.0 ? - sfCurrRotation : sfCurrRotation;
	vec4 q = snap ? sfCurrRotation : mix( sfPrevRotation, q1, sfAlpha );
	float l = length( q );
	sfRotation = l > 0.0 ? q / l : vec4( 0.0 );
#elif SF_ROTATION == 2
	float d = sfCurrRotation - sfPrevRotation;
	d -= 6.283185307179586 * floor( ( d + 3.141592653589793 ) / 6.283185307179586 );
	float angle = snap ? sfCurrRotation : sfPrevRotation + d * sfAlpha;
	sfRotation = vec4( 0.0, 0.0, sin( 0.5 * angle ), cos( 0.5 * angle ) );
#else
	sfRotation = vec4( 0.0, 0.0, 0.0, 1.0 );
#endif
#if SF_SCALE == 1
	sfScale = vec3( snap ? sfCurrScale : mix( sfPrevScale, sfCurrScale, sfAlpha ) );
#elif SF_SCALE == 3
	sfScale = snap ? sfCurrScale : mix( sfPrevScale, sfCurrScale, sfAlpha );
#else
	sfScale = vec3( 1.0 );
#endif
}
`;

const NORMALS = /* glsl */ `
	// the instance's rotation and scale for the normal (inverse scale) and tangent; object space again after
	vec3 sfObjectNormal = objectNormal;
	objectNormal = sfRotate( sfRotation, objectNormal / sfScale );
	#ifdef USE_TANGENT
		vec3 sfObjectTangent = objectTangent;
		objectTangent = sfRotate( sfRotation, objectTangent * sfScale );
	#endif
	#include <defaultnormal_vertex>
	objectNormal = sfObjectNormal;
	#ifdef USE_TANGENT
		objectTangent = sfObjectTangent;
	#endif
`;

const PROJECT = /* glsl */ `
	transformed = sfRotate( sfRotation, transformed * sfScale ) + sfPosition;
	#include <project_vertex>
`;

/** A key that tells apart the shader variants the fields make (three.js caches programs by it). */
export function variantKey(fields: ResolvedFields): string {
  const rotation = fields.rotation === null ? 0 : fields.rotation.kind === 'quaternion' ? 1 : 2;
  return `steadyframe:r${rotation}s${fields.scale?.width ?? 0}`;
}

function patchShader(shader: WebGLProgramParametersWithUniforms, fields: ResolvedFields, uniforms: InstanceUniforms): void {
  const rotation = fields.rotation === null ? 0 : fields.rotation.kind === 'quaternion' ? 1 : 2;
  const defines = `#define SF_ROTATION ${rotation}\n#define SF_SCALE ${fields.scale?.width ?? 0}\n`;
  let vertex = shader.vertexShader;
  const replace = (chunk: string, by: string): void => {
    if (!vertex.includes(chunk)) {
      throw new Error(`@steadyframe/three: the material's vertex shader has no "${chunk}"; interpolated instances need a built-in three.js material`);
    }
    vertex = vertex.replace(chunk, by);
  };
  replace('void main() {', `${defines}${DECLARATIONS}\nvoid main() {\n\tsfInterpolate();`);
  if (vertex.includes('#include <defaultnormal_vertex>')) replace('#include <defaultnormal_vertex>', NORMALS);
  replace('#include <project_vertex>', PROJECT);
  shader.vertexShader = vertex;
  shader.uniforms.sfAlpha = uniforms.sfAlpha;
  shader.uniforms.sfPrevCount = uniforms.sfPrevCount;
  shader.uniforms.sfSnaps = uniforms.sfSnaps;
}

/** Materials already patched: one material drives one mesh's uniforms, so it cannot serve two. */
const patched = new WeakSet<Material>();

/**
 * Makes `material` draw interpolated instances: chains its `onBeforeCompile` (the material's own hook still
 * runs first) and its `customProgramCacheKey`, and asks for a recompile. Changes the material in place.
 * Throws if the material was patched already: each interpolated mesh needs a material of its own. Returns the
 * undo: the material's own hooks back, free for another mesh (a mesh disposed and made again, as React does).
 */
export function patchMaterial(material: Material, fields: ResolvedFields, uniforms: InstanceUniforms): () => void {
  if (patched.has(material)) {
    throw new Error('@steadyframe/three: this material already draws another interpolated mesh; give each mesh its own (material.clone())');
  }
  patched.add(material);
  const previousHook = material.onBeforeCompile;
  const previousKey = material.customProgramCacheKey;
  const key = variantKey(fields);
  material.onBeforeCompile = function (this: Material, shader, renderer) {
    previousHook.call(this, shader, renderer);
    patchShader(shader, fields, uniforms);
  };
  material.customProgramCacheKey = function (this: Material) {
    return `${previousKey.call(this)}|${key}`;
  };
  material.needsUpdate = true;
  return () => {
    if (!patched.delete(material)) return;
    material.onBeforeCompile = previousHook;
    material.customProgramCacheKey = previousKey;
    material.needsUpdate = true;
  };
}
