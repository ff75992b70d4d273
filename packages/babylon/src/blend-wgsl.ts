/**
 * The vertex blend in WGSL, for Babylon's WebGPU engine. WebGPU draws from at most 8 vertex buffers (the
 * default limit, and Dawn's maximum): the mesh's own (position, normal, uv) and the thin instances' matrices take
 * four, and the state's 8 channel buffers would not fit. So here the state is one read-only storage buffer
 * (`state-storage.ts` fills it), read by the instance index; the arithmetic is the GLSL blend's (blend-glsl.ts).
 *
 * ```text
 *   sfState: array<u32>, one block per (buffer, channel), each `capacity` entities of that channel's width:
 *     buffer 0: [ position · capacity ][ rotation · capacity ][ scale · capacity ][ generation · capacity ]
 *     buffer 1: the same                                         (floats as their bits: bitcast<f32>)
 *   word of entity i, component c = (buffer * sfStride + prefix) * capacity + i * width + c
 *     (sfStride: the channels' widths summed; prefix: the widths of the channels before this one)
 * ```
 */
export const WGSL_DEFINITIONS = /* wgsl */ `
#ifdef SF_INSTANCES
// steadyframe: thin instances blended between the previous and the current state
uniform sfAlpha: f32;
uniform sfPrevCount: f32;
uniform sfSnaps: f32;
uniform sfFlip: f32;
uniform sfCapacity: f32;
var<storage, read> sfState: array<u32>;
#if SF_POSITION == 3
const sfPositionWidth = 3u;
#else
const sfPositionWidth = 2u;
#endif
#if SF_ROTATION == 1
const sfRotationWidth = 4u;
#elif SF_ROTATION == 2
const sfRotationWidth = 1u;
#else
const sfRotationWidth = 0u;
#endif
#if SF_SCALE == 3
const sfScaleWidth = 3u;
#elif SF_SCALE == 1
const sfScaleWidth = 1u;
#else
const sfScaleWidth = 0u;
#endif
const sfRotationPrefix = sfPositionWidth;
const sfScalePrefix = sfRotationPrefix + sfRotationWidth;
const sfGenerationPrefix = sfScalePrefix + sfScaleWidth;
const sfStride = sfGenerationPrefix + 1u;
var<private> sfBlendPosition: vec3f;
var<private> sfBlendRotation: vec4f;
var<private> sfBlendScale: vec3f;
// word c of this instance's value in a channel's block (buffer, prefix, width as in the layout above)
fn sfWord(buffer: u32, prefix: u32, width: u32, c: u32) -> u32 {
	let capacity = u32(uniforms.sfCapacity);
	return sfState[(buffer * sfStride + prefix) * capacity + vertexInputs.instanceIndex * width + c];
}
fn sfFloat(buffer: u32, prefix: u32, width: u32, c: u32) -> f32 {
	return bitcast<f32>(sfWord(buffer, prefix, width, c));
}
// v turned by the unit quaternion q
fn sfRotate(q: vec4f, v: vec3f) -> vec3f {
	let t = 2.0 * cross(q.xyz, v);
	return v + q.w * t + cross(q.xyz, t);
}
fn sfPositionOf(b: u32) -> vec3f {
#if SF_POSITION == 3
	return vec3f(sfFloat(b, 0u, 3u, 0u), sfFloat(b, 0u, 3u, 1u), sfFloat(b, 0u, 3u, 2u));
#else
	return vec3f(sfFloat(b, 0u, 2u, 0u), sfFloat(b, 0u, 2u, 1u), 0.0);
#endif
}
fn sfInterpolate() {
	// buffer sfFlip holds the previous state, the other one the current state
	let prev = u32(uniforms.sfFlip);
	let curr = 1u - prev;
	let alpha = uniforms.sfAlpha;
	// spawned this tick (no previous state) or, when the tick marked snaps, a new generation: the current state
	let snap = f32(vertexInputs.instanceIndex) >= uniforms.sfPrevCount || (uniforms.sfSnaps > 0.5 && sfWord(prev, sfGenerationPrefix, 1u, 0u) != sfWord(curr, sfGenerationPrefix, 1u, 0u));
	let p0 = sfPositionOf(prev);
	let p1 = sfPositionOf(curr);
	sfBlendPosition = select(mix(p0, p1, alpha), p1, snap);
#if SF_ROTATION == 1
	let q0 = vec4f(sfFloat(prev, sfRotationPrefix, 4u, 0u), sfFloat(prev, sfRotationPrefix, 4u, 1u), sfFloat(prev, sfRotationPrefix, 4u, 2u), sfFloat(prev, sfRotationPrefix, 4u, 3u));
	let q1 = vec4f(sfFloat(curr, sfRotationPrefix, 4u, 0u), sfFloat(curr, sfRotationPrefix, 4u, 1u), sfFloat(curr, sfRotationPrefix, 4u, 2u), sfFloat(curr, sfRotationPrefix, 4u, 3u));
	let near = select(q1, -q1, dot(q0, q1) < 0.0);
	let q = select(mix(q0, near, alpha), q1, snap);
	let l = length(q);
	sfBlendRotation = select(vec4f(0.0), q / max(l, 1e-30), l > 0.0);
#elif SF_ROTATION == 2
	let a0 = sfFloat(prev, sfRotationPrefix, 1u, 0u);
	let a1 = sfFloat(curr, sfRotationPrefix, 1u, 0u);
	var d = a1 - a0;
	d -= 6.283185307179586 * floor((d + 3.141592653589793) / 6.283185307179586);
	let angle = select(a0 + d * alpha, a1, snap);
	sfBlendRotation = vec4f(0.0, 0.0, sin(0.5 * angle), cos(0.5 * angle));
#else
	sfBlendRotation = vec4f(0.0, 0.0, 0.0, 1.0);
#endif
#if SF_SCALE == 3
	let s0 = vec3f(sfFloat(prev, sfScalePrefix, 3u, 0u), sfFloat(prev, sfScalePrefix, 3u, 1u), sfFloat(prev, sfScalePrefix, 3u, 2u));
	let s1 = vec3f(sfFloat(curr, sfScalePrefix, 3u, 0u), sfFloat(curr, sfScalePrefix, 3u, 1u), sfFloat(curr, sfScalePrefix, 3u, 2u));
	sfBlendScale = select(mix(s0, s1, alpha), s1, snap);
#elif SF_SCALE == 1
	let s0 = sfFloat(prev, sfScalePrefix, 1u, 0u);
	let s1 = sfFloat(curr, sfScalePrefix, 1u, 0u);
	sfBlendScale = vec3f(select(mix(s0, s1, alpha), s1, snap));
#else
	sfBlendScale = vec3f(1.0);
#endif
}
#endif
`;
