/**
 * The GPU path's shader in Pixi's frame of reference, in both of Pixi v8's shading languages: for a WebGL
 * renderer the 2D adapters' point-sprite shader (GLSL, one point per entity), for a WebGPU renderer the quad-sprite
 * shader (WGSL, one instanced quad per entity: WebGPU points are one pixel); both in `steadyframe/adapter`, where
 * their working is drawn out. Pixi's matrices (projection × world transform × the mesh's transform) and colours
 * (the mesh's tint and world alpha), and the uniform group one sprite set drives, are the same for both.
 */
import { GlProgram, GpuProgram, Shader, UniformGroup, type Texture } from 'pixi.js';
import { pointSpriteFragmentShader, pointSpriteVertexShader, quadSpriteShader, type AngleMode } from 'steadyframe/adapter';

/** The uniforms one interpolated sprite set drives. */
export interface SpriteUniforms {
  sfAlpha: number;
  /** Live entities in the previous state; entities at or past it snap (they were spawned this tick). */
  sfPrevCount: number;
  /** 0: buffers A hold the previous state; 1: buffers B do. */
  sfFlip: number;
  /** 1: the pair's tick marked snaps (the runtime's SNAPS), so the generations are uploaded and compared. */
  sfSnaps: number;
  /** The quad: x0, y0, width, height in the mesh's local units. */
  sfQuad: Float32Array;
  /** The texture frame's uvs at corners 0, 1 (x0 y0 x1 y1) and 2, 3 (x2 y2 x3 y3). */
  sfUv01: Float32Array;
  sfUv23: Float32Array;
}

/** Pixi's global and local uniforms, as its mesh shaders declare them. */
const PIXI_HOST = {
  declarations: `uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform vec4 uWorldColorAlpha;
uniform vec2 uResolution;
uniform mat3 uTransformMatrix;
uniform vec4 uColor;`,
  mvp: 'uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix',
  color: 'uColor * uWorldColorAlpha',
};

/** Pixi's global (group 0) and local (group 1) uniforms as its WGSL mesh shaders declare them; ours are group 2. */
const PIXI_WGSL_HOST = {
  declarations: `struct GlobalUniforms {
  uProjectionMatrix: mat3x3<f32>,
  uWorldTransformMatrix: mat3x3<f32>,
  uWorldColorAlpha: vec4<f32>,
  uResolution: vec2<f32>,
}
@group(0) @binding(0) var<uniform> globalUniforms: GlobalUniforms;
struct LocalUniforms {
  uTransformMatrix: mat3x3<f32>,
  uColor: vec4<f32>,
  uRound: f32,
}
@group(1) @binding(0) var<uniform> localUniforms: LocalUniforms;`,
  mvp: 'globalUniforms.uProjectionMatrix * globalUniforms.uWorldTransformMatrix * localUniforms.uTransformMatrix',
  color: 'localUniforms.uColor * globalUniforms.uWorldColorAlpha',
  group: 2,
};

/** The shader for one angle mode, and the uniform group it reads; the program is shared between sprite sets. */
export function createSpriteShader(angle: AngleMode, texture: Texture): { shader: Shader; uniforms: UniformGroup } {
  const glProgram = GlProgram.from({ vertex: pointSpriteVertexShader(angle, PIXI_HOST), fragment: pointSpriteFragmentShader(300), name: `steadyframe-sprites-${angle}` });
  const source = quadSpriteShader(angle, PIXI_WGSL_HOST);
  const gpuProgram = GpuProgram.from({ vertex: { source, entryPoint: 'vsMain' }, fragment: { source, entryPoint: 'fsMain' }, name: `steadyframe-sprites-${angle}` });
  const uniforms = new UniformGroup({
    sfAlpha: { value: 1, type: 'f32' },
    sfPrevCount: { value: 0, type: 'f32' },
    sfFlip: { value: 0, type: 'f32' },
    sfSnaps: { value: 0, type: 'f32' },
    sfQuad: { value: new Float32Array(4), type: 'vec4<f32>' },
    sfUv01: { value: new Float32Array(4), type: 'vec4<f32>' },
    sfUv23: { value: new Float32Array(4), type: 'vec4<f32>' },
  });
  // uSampler: WGSL samples with a sampler of its own (GLSL's sampler2D carries it)
  const shader = new Shader({ glProgram, gpuProgram, resources: { sfUniforms: uniforms, uTexture: texture.source, uSampler: texture.source.style } });
  return { shader, uniforms };
}
