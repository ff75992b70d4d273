/**
 * The 2D sprite blend in WGSL, for WebGPU renderers (PixiJS v8's WebGPURenderer): the same arithmetic as the
 * GLSL point-sprite shader (`point-sprites.ts`), drawn as one instanced quad per entity. WebGPU has no point
 * sizes (a point-list primitive is one pixel), so the sprite is two triangles, and the turn is done on the
 * quad's corners in the vertex shader rather than on each pixel in the fragment shader.
 *
 * ```text
 *  instance e (instance_index): state A (aPosA, aAngleA, aGenA)   state B (aPosB, aAngleB, aGenB)
 *                               per-instance vertex buffers: the same runs the GLSL path reads per vertex
 *  vertex k of 4 (aCorner: 0,0  1,0  1,1  0,1), indices 0 1 2, 0 2 3
 *
 *             sfFlip = 0: A is the previous state, B the current one; 1: the other way round
 *             snap?     spawned this tick (e >= sfPrevCount) or, when the tick marked snaps (sfSnaps), a new
 *                       generation (teleported)
 *             position  snap ? current : mix(previous, current, alpha)
 *             angle     the short way round (an angle field) or mix (a linear one); current when snapping
 *
 *                      corner 3 ─────── corner 2        local = sfQuad.xy + aCorner * sfQuad.zw
 *                         │       ╱        │            turned by the angle, moved to the position,
 *                         │     ╱          │            through the engine's mat3 to clip space
 *                      corner 0 ─────── corner 1        uv: the texture frame's corners, bilinear in aCorner
 *  fragment:  the texel at uv, times the engine's colour
 * ```
 *
 * Seven vertex buffers (the corners, and two per channel: position, angle, generations) of WebGPU's guaranteed
 * 8. The flip, the snap rule and the blend past alpha 1 are the GLSL shader's, in float32.
 */
import type { AngleMode } from './point-sprites.ts';

/**
 * What the engine puts around the shader: its WGSL declarations (structs and bindings of its own uniforms), a
 * `mat3x3<f32>` expression from the sprites' local units to clip space, a `vec4<f32>` expression for the colour
 * every texel is multiplied by, and the bind group at which the shader declares its own three bindings:
 * `@binding(0)` the `sfUniforms` uniform buffer (`QUAD_SPRITE_UNIFORMS`'s layout), `@binding(1)` `uTexture`,
 * `@binding(2)` `uSampler`.
 */
export interface QuadSpriteHost {
  readonly declarations: string;
  readonly mvp: string;
  readonly color: string;
  readonly group: number;
}

/**
 * The `sfUniforms` struct's members in order, each a name and its WGSL type: four f32 then three vec4<f32>
 * (offsets 0, 4, 8, 12, 16, 32, 48; 64 bytes). The GLSL shader's uniforms by the same names.
 */
export const QUAD_SPRITE_UNIFORMS = [
  ['sfAlpha', 'f32'],
  ['sfPrevCount', 'f32'],
  ['sfFlip', 'f32'],
  ['sfSnaps', 'f32'],
  ['sfQuad', 'vec4<f32>'],
  ['sfUv01', 'vec4<f32>'],
  ['sfUv23', 'vec4<f32>'],
] as const;

/** The quad's four corners (x, y in 0..1, corner 0 first, counter-clockwise in the quad's frame), float32x2. */
export const QUAD_CORNERS: readonly number[] = [0, 0, 1, 0, 1, 1, 0, 1];
/** Its two triangles as indices into the corners. */
export const QUAD_INDICES: readonly number[] = [0, 1, 2, 0, 2, 3];

/**
 * The WGSL module for one angle mode in the host's frame of reference: entry points `vsMain` and `fsMain`.
 * Vertex inputs: `aCorner` (per vertex) and `aPosA`, `aPosB` (`vec2<f32>`), `aAngleA`, `aAngleB` (`f32`, only
 * when an angle is bound), `aGenA`, `aGenB` (`u32`), per instance.
 */
export function quadSpriteShader(angle: AngleMode, host: QuadSpriteHost): string {
  const members = QUAD_SPRITE_UNIFORMS.map(([name, type]) => `  ${name}: ${type},`).join('\n');
  const angleInputs = angle === 0 ? '' : '\n  @location(3) aAngleA: f32,\n  @location(4) aAngleB: f32,';
  const angleBlend =
    angle === 0
      ? '  let angle = 0.0;'
      : `  let a0 = select(aAngleA, aAngleB, flip);
  let a1 = select(aAngleB, aAngleA, flip);
${
  angle === 1
    ? `  var d = a1 - a0;
  d -= 6.283185307179586 * floor((d + 3.141592653589793) / 6.283185307179586);
  let angle = select(a0 + d * sf.sfAlpha, a1, snap);`
    : '  let angle = select(mix(a0, a1, sf.sfAlpha), a1, snap);'
}`;
  return /* wgsl */ `${host.declarations}
struct SfUniforms {
${members}
}
@group(${host.group}) @binding(0) var<uniform> sfUniforms: SfUniforms;
@group(${host.group}) @binding(1) var uTexture: texture_2d<f32>;
@group(${host.group}) @binding(2) var uSampler: sampler;

struct SfVarying {
  @builtin(position) position: vec4<f32>,
  @location(0) uv: vec2<f32>,
  @location(1) @interpolate(flat) color: vec4<f32>,
}

@vertex
fn vsMain(
  @builtin(instance_index) instance: u32,
  @location(0) aCorner: vec2<f32>,
  @location(1) aPosA: vec2<f32>,
  @location(2) aPosB: vec2<f32>,${angleInputs}
  @location(5) aGenA: u32,
  @location(6) aGenB: u32,
) -> SfVarying {
  let sf = sfUniforms;
  let flip = sf.sfFlip > 0.5;
  let p0 = select(aPosA, aPosB, flip);
  let p1 = select(aPosB, aPosA, flip);
  let g0 = select(aGenA, aGenB, flip);
  let g1 = select(aGenB, aGenA, flip);
  // spawned this tick (no previous state) or a new generation (teleported): the current state as it is
  let snap = f32(instance) >= sf.sfPrevCount || (sf.sfSnaps > 0.5 && g0 != g1);
  let position = select(mix(p0, p1, sf.sfAlpha), p1, snap);
${angleBlend}
  let c = cos(angle);
  let s = sin(angle);
  let local = sf.sfQuad.xy + aCorner * sf.sfQuad.zw;
  let turned = vec2<f32>(c * local.x - s * local.y, s * local.x + c * local.y);
  let mvp = ${host.mvp};
  var out: SfVarying;
  out.position = vec4<f32>((mvp * vec3<f32>(position + turned, 1.0)).xy, 0.0, 1.0);
  // the texture frame's uvs: corner 0 (x0, y0), 1 (x1, y1) along x, 3 (x3, y3) along y
  out.uv = sf.sfUv01.xy + (sf.sfUv01.zw - sf.sfUv01.xy) * aCorner.x + (sf.sfUv23.zw - sf.sfUv01.xy) * aCorner.y;
  out.color = ${host.color};
  return out;
}

@fragment
fn fsMain(v: SfVarying) -> @location(0) vec4<f32> {
  return textureSample(uTexture, uSampler, v.uv) * v.color;
}
`;
}
