/**
 * The vertex blend in GLSL, for Babylon's WebGL 2 engine: each channel's two buffers are per-instance attributes
 * (sf<Channel>0, sf<Channel>1; `state-attributes.ts` fills them), the GPU pair mirror's `flip` a uniform that
 * says which holds the previous state. Injected at CUSTOM_VERTEX_DEFINITIONS (`instance-shader.ts`).
 */
export const GLSL_DEFINITIONS = /* glsl */ `
#ifdef SF_INSTANCES
// steadyframe: thin instances blended between the previous and the current state
uniform float sfAlpha;
uniform float sfPrevCount;
uniform float sfSnaps;
uniform float sfFlip;
#if SF_POSITION == 3
attribute vec3 sfPosition0;
attribute vec3 sfPosition1;
#else
attribute vec2 sfPosition0;
attribute vec2 sfPosition1;
#endif
attribute uint sfGeneration0;
attribute uint sfGeneration1;
#if SF_ROTATION == 1
attribute vec4 sfRotation0;
attribute vec4 sfRotation1;
#elif SF_ROTATION == 2
attribute float sfRotation0;
attribute float sfRotation1;
#endif
#if SF_SCALE == 1
attribute float sfScale0;
attribute float sfScale1;
#elif SF_SCALE == 3
attribute vec3 sfScale0;
attribute vec3 sfScale1;
#endif
vec3 sfBlendPosition;
vec4 sfBlendRotation;
vec3 sfBlendScale;
// v turned by the unit quaternion q
vec3 sfRotate(vec4 q, vec3 v) {
	vec3 t = 2.0 * cross(q.xyz, v);
	return v + q.w * t + cross(q.xyz, t);
}
void sfInterpolate() {
	// buffer sfFlip holds the previous state, the other one the current state
	bool flip = sfFlip > 0.5;
	// spawned this tick (no previous state) or, when the tick marked snaps, a new generation: the current state
	bool snap = float(gl_InstanceID) >= sfPrevCount || (sfSnaps > 0.5 && sfGeneration0 != sfGeneration1);
#if SF_POSITION == 3
	vec3 p0 = flip ? sfPosition1 : sfPosition0;
	vec3 p1 = flip ? sfPosition0 : sfPosition1;
#else
	vec3 p0 = vec3(flip ? sfPosition1 : sfPosition0, 0.0);
	vec3 p1 = vec3(flip ? sfPosition0 : sfPosition1, 0.0);
#endif
	sfBlendPosition = snap ? p1 : mix(p0, p1, sfAlpha);
#if SF_ROTATION == 1
	vec4 q0 = flip ? sfRotation1 : sfRotation0;
	vec4 q1 = flip ? sfRotation0 : sfRotation1;
	vec4 near = dot(q0, q1) < 0.0 ? -q1 : q1;
	vec4 q = snap ? q1 : mix(q0, near, sfAlpha);
	float l = length(q);
	sfBlendRotation = l > 0.0 ? q / l : vec4(0.0);
#elif SF_ROTATION == 2
	float a0 = flip ? sfRotation1 : sfRotation0;
	float a1 = flip ? sfRotation0 : sfRotation1;
	float d = a1 - a0;
	d -= 6.283185307179586 * floor((d + 3.141592653589793) / 6.283185307179586);
	float angle = snap ? a1 : a0 + d * sfAlpha;
	sfBlendRotation = vec4(0.0, 0.0, sin(0.5 * angle), cos(0.5 * angle));
#else
	sfBlendRotation = vec4(0.0, 0.0, 0.0, 1.0);
#endif
#if SF_SCALE == 1
	float s0 = flip ? sfScale1 : sfScale0;
	float s1 = flip ? sfScale0 : sfScale1;
	sfBlendScale = vec3(snap ? s1 : mix(s0, s1, sfAlpha));
#elif SF_SCALE == 3
	vec3 s0 = flip ? sfScale1 : sfScale0;
	vec3 s1 = flip ? sfScale0 : sfScale1;
	sfBlendScale = snap ? s1 : mix(s0, s1, sfAlpha);
#else
	sfBlendScale = vec3(1.0);
#endif
}
#endif
`;
