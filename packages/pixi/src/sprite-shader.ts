/**
 * The GPU path's shader (WebGL 2): each instance is one textured quad, placed between its previous and current
 * state at the `sfAlpha` uniform.
 *
 * ```text
 *  per instance:  state A (aPosA, aAngleA, aGenA)   state B (aPosB, aAngleB, aGenB)
 *                 sfFlip = 0: A is the previous state, B the current one; 1: the other way round
 *                 snap?   spawned this tick (gl_InstanceID >= sfPrevCount) or a new generation (teleport)
 *                 position  snap ? current : mix(previous, current, alpha)
 *                 angle     the short way round (an angle field) or mix (a linear one); current when snapping
 *  per vertex:    the quad corner, turned by the angle, moved to the position, then Pixi's own transforms
 * ```
 *
 * The flip lets a new tick overwrite the older state's buffers in place (one upload of one state a tick)
 * without re-pointing attributes, which Pixi's cached vertex array objects would not see. It is the same
 * arithmetic as steadyframe's interpolation kernels at alpha in [0, 1], in float32.
 */
import { GlProgram, Shader, UniformGroup, type Texture } from 'pixi.js';

/** How the instance angle is blended: none bound, an angle field (short arc), a linear field. */
export type AngleMode = 0 | 1 | 2;

/** The uniforms one interpolated sprite set drives. */
export interface SpriteUniforms {
  sfAlpha: number;
  /** Live entities in the previous state; instances at or past it snap (they were spawned this tick). */
  sfPrevCount: number;
  /** 0: buffers A hold the previous state; 1: buffers B do. */
  sfFlip: number;
}

const VERTEX = /* glsl */ `#version 300 es
precision highp float;
in vec2 aPosition;
in vec2 aUV;
in vec2 aPosA;
in vec2 aPosB;
in uint aGenA;
in uint aGenB;
#if SF_ANGLE != 0
in float aAngleA;
in float aAngleB;
#endif
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform vec4 uWorldColorAlpha;
uniform mat3 uTransformMatrix;
uniform vec4 uColor;
uniform float sfAlpha;
uniform float sfPrevCount;
uniform float sfFlip;
out vec2 vUV;
out vec4 vColor;

void main() {
  bool flip = sfFlip > 0.5;
  vec2 p0 = flip ? aPosB : aPosA;
  vec2 p1 = flip ? aPosA : aPosB;
  uint g0 = flip ? aGenB : aGenA;
  uint g1 = flip ? aGenA : aGenB;
  // spawned this tick (no previous state) or a new generation (teleported): the current state as it is
  bool snap = float(gl_InstanceID) >= sfPrevCount || g0 != g1;
  vec2 position = snap ? p1 : mix(p0, p1, sfAlpha);
  vec2 corner = aPosition;
#if SF_ANGLE != 0
  float a0 = flip ? aAngleB : aAngleA;
  float a1 = flip ? aAngleA : aAngleB;
#if SF_ANGLE == 1
  float d = a1 - a0;
  d -= 6.283185307179586 * floor((d + 3.141592653589793) / 6.283185307179586);
  float angle = snap ? a1 : a0 + d * sfAlpha;
#else
  float angle = snap ? a1 : mix(a0, a1, sfAlpha);
#endif
  float c = cos(angle);
  float s = sin(angle);
  corner = vec2(c * corner.x - s * corner.y, s * corner.x + c * corner.y);
#endif
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(corner + position, 1.0)).xy, 0.0, 1.0);
  vUV = aUV;
  vColor = uColor * uWorldColorAlpha;
}
`;

const FRAGMENT = /* glsl */ `#version 300 es
precision mediump float;
in vec2 vUV;
in vec4 vColor;
uniform sampler2D uTexture;
out vec4 finalColor;

void main() {
  finalColor = texture(uTexture, vUV) * vColor;
}
`;

/** The shader for one angle mode, and the uniform group it reads; the program is shared between sprite sets. */
export function createSpriteShader(angle: AngleMode, texture: Texture): { shader: Shader; uniforms: UniformGroup } {
  const vertex = VERTEX.replace('precision highp float;', `precision highp float;\n#define SF_ANGLE ${angle}`);
  const glProgram = GlProgram.from({ vertex, fragment: FRAGMENT, name: `steadyframe-sprites-${angle}` });
  const uniforms = new UniformGroup({
    sfAlpha: { value: 1, type: 'f32' },
    sfPrevCount: { value: 0, type: 'f32' },
    sfFlip: { value: 0, type: 'f32' },
  });
  const shader = new Shader({ glProgram, resources: { sfUniforms: uniforms, uTexture: texture.source } });
  return { shader, uniforms };
}
