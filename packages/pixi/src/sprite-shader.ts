/**
 * The GPU path's shader in Pixi's frame of reference: the 2D adapters' point-sprite shader (`steadyframe/adapter`,
 * where its working is drawn out) with Pixi's matrices (projection × world transform × the mesh's transform) and
 * colours (the mesh's tint and world alpha), and the uniform group one sprite set drives.
 */
import { GlProgram, Shader, UniformGroup, type Texture } from 'pixi.js';
import { pointSpriteFragmentShader, pointSpriteVertexShader, type AngleMode } from 'steadyframe/adapter';

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

/** The shader for one angle mode, and the uniform group it reads; the program is shared between sprite sets. */
export function createSpriteShader(angle: AngleMode, texture: Texture): { shader: Shader; uniforms: UniformGroup } {
  const glProgram = GlProgram.from({ vertex: pointSpriteVertexShader(angle, PIXI_HOST), fragment: pointSpriteFragmentShader(300), name: `steadyframe-sprites-${angle}` });
  const uniforms = new UniformGroup({
    sfAlpha: { value: 1, type: 'f32' },
    sfPrevCount: { value: 0, type: 'f32' },
    sfFlip: { value: 0, type: 'f32' },
    sfSnaps: { value: 0, type: 'f32' },
    sfQuad: { value: new Float32Array(4), type: 'vec4<f32>' },
    sfUv01: { value: new Float32Array(4), type: 'vec4<f32>' },
    sfUv23: { value: new Float32Array(4), type: 'vec4<f32>' },
  });
  const shader = new Shader({ glProgram, resources: { sfUniforms: uniforms, uTexture: texture.source } });
  return { shader, uniforms };
}
