/**
 * The GPU path's shader (WebGL 2). The states live in data textures, one texel per entity (entity e at texel
 * (e % STATE_TEXTURE_WIDTH, e / STATE_TEXTURE_WIDTH)), and the mesh is 4 vertices per entity drawn with one
 * plain indexed draw: vertex v is corner v % 4 of entity v / 4 (`gl_VertexID`). Not instancing: software
 * WebGL (SwiftShader) runs an instanced draw instance by instance, 8× slower than the same quads in one draw.
 *
 * ```text
 *  per vertex:  entity = gl_VertexID >> 2, corner = gl_VertexID & 3
 *               state A (sfPosA, sfAngleA, sfGenA)   state B (sfPosB, sfAngleB, sfGenB), texelFetch at the entity
 *               sfFlip = 0: A is the previous state, B the current one; 1: the other way round
 *               snap?     spawned this tick (entity >= sfPrevCount) or a new generation (teleported)
 *               position  snap ? current : mix(previous, current, alpha)
 *               angle     the short way round (an angle field) or mix (a linear one); current when snapping
 *               the quad corner, turned by the angle, moved to the position, then Pixi's own transforms
 * ```
 *
 * The flip lets a new tick overwrite the older state's textures in place (one upload of one state a tick)
 * without re-binding anything. It is the same arithmetic as steadyframe's interpolation kernels at alpha in
 * [0, 1], in float32.
 */
import { GlProgram, Shader, UniformGroup, type Texture, type TextureSource } from 'pixi.js';

/** Entities per row of a state texture. */
export const STATE_TEXTURE_WIDTH = 1024;

/** How the angle is blended: none bound, an angle field (short arc), a linear field. */
export type AngleMode = 0 | 1 | 2;

/** The uniforms one interpolated sprite set drives. */
export interface SpriteUniforms {
  sfAlpha: number;
  /** Live entities in the previous state; entities at or past it snap (they were spawned this tick). */
  sfPrevCount: number;
  /** 0: textures A hold the previous state; 1: textures B do. */
  sfFlip: number;
  /** The quad: x0, y0, width, height in the mesh's local units. */
  sfQuad: Float32Array;
  /** The texture frame's uvs at corners 0, 1 (x0 y0 x1 y1) and 2, 3 (x2 y2 x3 y3). */
  sfUv01: Float32Array;
  sfUv23: Float32Array;
}

const VERTEX = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform vec4 uWorldColorAlpha;
uniform mat3 uTransformMatrix;
uniform vec4 uColor;
uniform float sfAlpha;
uniform float sfPrevCount;
uniform float sfFlip;
uniform vec4 sfQuad;
uniform vec4 sfUv01;
uniform vec4 sfUv23;
uniform highp sampler2D sfPosA;
uniform highp sampler2D sfPosB;
uniform highp usampler2D sfGenA;
uniform highp usampler2D sfGenB;
#if SF_ANGLE != 0
uniform highp sampler2D sfAngleA;
uniform highp sampler2D sfAngleB;
#endif
out vec2 vUV;
out vec4 vColor;

void main() {
  int entity = gl_VertexID >> 2;
  int corner = gl_VertexID & 3;
  ivec2 texel = ivec2(entity & (SF_WIDTH - 1), entity / SF_WIDTH);
  bool flip = sfFlip > 0.5;
  vec2 pa = texelFetch(sfPosA, texel, 0).xy;
  vec2 pb = texelFetch(sfPosB, texel, 0).xy;
  uint ga = texelFetch(sfGenA, texel, 0).r;
  uint gb = texelFetch(sfGenB, texel, 0).r;
  vec2 p0 = flip ? pb : pa;
  vec2 p1 = flip ? pa : pb;
  // spawned this tick (no previous state) or a new generation (teleported): the current state as it is
  bool snap = float(entity) >= sfPrevCount || ga != gb;
  vec2 position = snap ? p1 : mix(p0, p1, sfAlpha);
  // corners 0 1 2 3: (x0, y0) (x1, y0) (x1, y1) (x0, y1)
  vec2 local = sfQuad.xy + vec2(corner == 1 || corner == 2 ? sfQuad.z : 0.0, corner >= 2 ? sfQuad.w : 0.0);
#if SF_ANGLE != 0
  float aa = texelFetch(sfAngleA, texel, 0).r;
  float ab = texelFetch(sfAngleB, texel, 0).r;
  float a0 = flip ? ab : aa;
  float a1 = flip ? aa : ab;
#if SF_ANGLE == 1
  float d = a1 - a0;
  d -= 6.283185307179586 * floor((d + 3.141592653589793) / 6.283185307179586);
  float angle = snap ? a1 : a0 + d * sfAlpha;
#else
  float angle = snap ? a1 : mix(a0, a1, sfAlpha);
#endif
  float c = cos(angle);
  float s = sin(angle);
  local = vec2(c * local.x - s * local.y, s * local.x + c * local.y);
#endif
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(local + position, 1.0)).xy, 0.0, 1.0);
  vUV = corner == 0 ? sfUv01.xy : corner == 1 ? sfUv01.zw : corner == 2 ? sfUv23.xy : sfUv23.zw;
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

/** The state textures the shader reads, by uniform name; the angle ones only with an angle field. */
export interface StateTextures {
  sfPosA: TextureSource;
  sfPosB: TextureSource;
  sfGenA: TextureSource;
  sfGenB: TextureSource;
  sfAngleA?: TextureSource;
  sfAngleB?: TextureSource;
}

/** The shader for one angle mode, and the uniform group it reads; the program is shared between sprite sets. */
export function createSpriteShader(angle: AngleMode, texture: Texture, states: StateTextures): { shader: Shader; uniforms: UniformGroup } {
  const vertex = VERTEX.replace('precision highp int;', `precision highp int;\n#define SF_ANGLE ${angle}\n#define SF_WIDTH ${STATE_TEXTURE_WIDTH}`);
  const glProgram = GlProgram.from({ vertex, fragment: FRAGMENT, name: `steadyframe-sprites-${angle}` });
  const uniforms = new UniformGroup({
    sfAlpha: { value: 1, type: 'f32' },
    sfPrevCount: { value: 0, type: 'f32' },
    sfFlip: { value: 0, type: 'f32' },
    sfQuad: { value: new Float32Array(4), type: 'vec4<f32>' },
    sfUv01: { value: new Float32Array(4), type: 'vec4<f32>' },
    sfUv23: { value: new Float32Array(4), type: 'vec4<f32>' },
  });
  const shader = new Shader({ glProgram, resources: { sfUniforms: uniforms, uTexture: texture.source, ...states } });
  return { shader, uniforms };
}
