/**
 * The GPU paths' sprite shader (WebGL 2 GLSL), shared by the 2D adapters (`@steadyframe/pixi`,
 * `@steadyframe/phaser`), each wrapping it with its engine's matrices. Each entity is one point: its previous and
 * current state are plain vertex attributes (entity e is vertex e, so a field's run is the attribute buffer as
 * it is), the vertex shader blends them and sizes the point to hold the turned sprite, and the fragment shader
 * turns each pixel back into the sprite's frame and samples the texture there (outside it: discarded). One
 * vertex per entity, no instancing and no texture fetches in the vertex shader: software WebGL (SwiftShader)
 * runs an instanced draw instance by instance (several times slower), and a vertex-shader texture fetch costs it
 * more than the whole vertex (ARCHITECTURE.md, "Measurements behind the code").
 *
 * ```text
 *  vertex e:  state A (aPosA, aAngleA, aGenA)   state B (aPosB, aAngleB, aGenB)
 *             sfFlip = 0: A is the previous state, B the current one; 1: the other way round
 *             snap?     spawned this tick (e >= sfPrevCount) or, when the tick marked snaps (sfSnaps), a new
 *                       generation (teleported); without marked snaps the generations are not even uploaded
 *             position  snap ? current : mix(previous, current, alpha)
 *             angle     the short way round (an angle field) or mix (a linear one); current when snapping
 *             the point: at the sprite's centre (the anchor offset turned), as wide as its diagonal in pixels
 *  fragment:  pixel offset from the centre ──▶ local units (the inverse of the engine's transform) ──▶ turned
 *             back ──▶ where in the sprite's quad: outside, discard; inside, the texture frame's uv there
 * ```
 *
 * The flip lets a new tick overwrite the older state's buffers in place (one upload of one state a tick)
 * without re-pointing attributes. It is the same arithmetic as steadyframe's interpolation kernels, in float32,
 * at any alpha: past 1 (a late frame under `whenLate: 'extrapolate'`) it carries the last tick's motion on as
 * the runtime's own blend does. A sprite's point is at most the GPU's largest point size across
 * (ALIASED_POINT_SIZE_RANGE: 1,024 px on SwiftShader and most desktops).
 *
 * Two dialects of one source: GLSL ES 3.00 for WebGL 2 (Pixi's renderer) and GLSL ES 1.00 for WebGL 1 (Phaser's,
 * which asks for a 'webgl' context). In 1.00 there is no `gl_VertexID`, no integer attribute and no `flat`: the
 * entity's index is an attribute of its own (`aIndex`), each generation (a uint32) is read as its two 16-bit
 * halves (`vec2`, exact in float), and the varyings are the same for every pixel of a point anyway.
 */

import type { Schema } from '../core/schema.ts';

/** How the angle is blended: none bound, an angle field (short arc), a linear field. */
export type AngleMode = 0 | 1 | 2;

/** The angle mode of a bound angle field (null: none bound). */
export function angleModeOf(schema: Schema, angle: string | null): AngleMode {
  return angle === null ? 0 : schema[angle]!.kind === 'angle' ? 1 : 2;
}

/** A sprite set's geometry and first buffer size, as a GPU path's options give them. */
export interface PointSpriteOptions {
  /** A sprite's size in local units. */
  readonly width: number;
  readonly height: number;
  /** Where the entity's position sits in the sprite, 0..1 (a number sets both; 0.5 by default). */
  readonly pivot: number | { readonly x: number; readonly y: number } | undefined;
  /** The engine's word for the pivot in errors (`anchor` in PixiJS, `origin` in Phaser). */
  readonly pivotName: string;
  /** Entities the buffers hold before they first grow (1024 by default), at most `capacity`. */
  readonly initialCapacity: number | undefined;
  readonly capacity: number;
}

/**
 * Checks a GPU path's sprite options at set-up (`prefix` starts each error: the adapter's name and a colon) and
 * returns the quad the shader reads (`sfQuad`: x0, y0, width, height, the entity at 0, 0) and the buffers' first
 * size in entities.
 */
export function pointSpriteLayout(options: PointSpriteOptions, prefix: string): { readonly quad: Float32Array; readonly bufferCapacity: number } {
  const { width, height, pivotName } = options;
  const pivot = options.pivot ?? 0.5;
  const px = typeof pivot === 'number' ? pivot : pivot.x;
  const py = typeof pivot === 'number' ? pivot : pivot.y;
  for (const [name, value] of [['width', width], ['height', height], [`${pivotName} x`, px], [`${pivotName} y`, py]] as const) {
    if (!Number.isFinite(value)) throw new RangeError(`${prefix} options.${name} must be a finite number; got ${String(value)}`);
  }
  const initial = options.initialCapacity ?? 1024;
  if (!Number.isInteger(initial) || initial < 1) {
    throw new RangeError(`${prefix} options.initialCapacity must be a whole number of at least 1; got ${String(initial)}`);
  }
  return { quad: new Float32Array([-px * width, -py * height, width, height]), bufferCapacity: Math.min(initial, options.capacity) };
}

/**
 * What the engine puts around the shader: its uniform declarations (they must declare `vec2 uResolution`, the
 * target's size in pixels, beside whatever the two expressions read), a `mat3` expression from the sprites'
 * local units to clip space, and a `vec4` expression for the colour every texel is multiplied by.
 */
export interface PointSpriteHost {
  readonly declarations: string;
  readonly mvp: string;
  readonly color: string;
}

/** GLSL ES 3.00 (WebGL 2) or 1.00 (WebGL 1). */
export type GlslDialect = 300 | 100;

/**
 * The vertex shader for one angle mode, in the host's frame of reference and dialect. `frames` > 0: each entity
 * shows one of that many texture frames (`sfFrames[i]`: u0, v0, u1, v1), picked by its current state's
 * `aFrameA`/`aFrameB` attribute; 0: every entity shows the one frame of `sfUv01`/`sfUv23`.
 */
export function pointSpriteVertexShader(angle: AngleMode, host: PointSpriteHost, dialect: GlslDialect = 300, frames = 0): string {
  const v3 = dialect === 300;
  const input = v3 ? 'in' : 'attribute';
  const frameDeclarations =
    frames > 0 ? `\n${input} float aFrameA;\n${input} float aFrameB;\nuniform vec4 sfFrames[${frames}];\n${v3 ? 'flat out' : 'varying'} vec4 vFrame;` : '';
  const pickFrame =
    frames > 0
      ? `\n  // the discrete rule (core/interpolate.ts, showsCurrent): the current state's frame once the frame has left the\n  // previous state (alpha above 0), the previous one at alpha 0; an entity that snaps has only its current\n  float frameIndex = snap || sfAlpha > 0.0 ? (flip ? aFrameA : aFrameB) : (flip ? aFrameB : aFrameA);\n  vFrame = sfFrames[int(clamp(frameIndex, 0.0, ${frames - 1}.0) + 0.5)];`
      : '';
  return /* glsl */ `${v3 ? '#version 300 es\n' : ''}precision highp float;
${v3 ? 'precision highp int;\n' : ''}#define SF_ANGLE ${angle}
${v3 ? 'in vec2 aPosA;\nin vec2 aPosB;\nin uint aGenA;\nin uint aGenB;' : 'attribute float aIndex;\nattribute vec2 aPosA;\nattribute vec2 aPosB;\nattribute vec2 aGenA;\nattribute vec2 aGenB;'}
#if SF_ANGLE != 0
${v3 ? 'in float aAngleA;\nin float aAngleB;' : 'attribute float aAngleA;\nattribute float aAngleB;'}
#endif
${host.declarations}
uniform float sfAlpha;
uniform float sfPrevCount;
uniform float sfFlip;
uniform float sfSnaps;
uniform vec4 sfQuad;
${v3 ? 'flat out vec4 vToQuad;\nflat out vec2 vQuadAt;\nflat out vec4 vColor;' : 'varying vec4 vToQuad;\nvarying vec2 vQuadAt;\nvarying vec4 vColor;'}${frameDeclarations}

mat2 inverse2(mat2 m) {
  return mat2(m[1][1], -m[0][1], -m[1][0], m[0][0]) / (m[0][0] * m[1][1] - m[1][0] * m[0][1]);
}

void main() {
  bool flip = sfFlip > 0.5;
  vec2 p0 = flip ? aPosB : aPosA;
  vec2 p1 = flip ? aPosA : aPosB;
  ${v3 ? 'uint g0 = flip ? aGenB : aGenA;\n  uint g1 = flip ? aGenA : aGenB;' : 'vec2 g0 = flip ? aGenB : aGenA;\n  vec2 g1 = flip ? aGenA : aGenB;'}
  // spawned this tick (no previous state) or a new generation (teleported): the current state as it is
  bool snap = ${v3 ? 'float(gl_VertexID)' : 'aIndex'} >= sfPrevCount || (sfSnaps > 0.5 && g0 != g1);
  vec2 position = snap ? p1 : mix(p0, p1, sfAlpha);
  float angle = 0.0;
#if SF_ANGLE != 0
  float a0 = flip ? aAngleB : aAngleA;
  float a1 = flip ? aAngleA : aAngleB;
#if SF_ANGLE == 1
  float d = a1 - a0;
  d -= 6.283185307179586 * floor((d + 3.141592653589793) / 6.283185307179586);
  angle = snap ? a1 : a0 + d * sfAlpha;
#else
  angle = snap ? a1 : mix(a0, a1, sfAlpha);
#endif
#endif
  float c = cos(angle);
  float s = sin(angle);
  vec2 extent = 0.5 * sfQuad.zw;
  vec2 centre = sfQuad.xy + extent; // the quad's centre from the entity, before the turn
  vec2 offset = vec2(c * centre.x - s * centre.y, s * centre.x + c * centre.y);
  mat3 mvp = ${host.mvp};
  gl_Position = vec4((mvp * vec3(position + offset, 1.0)).xy, 0.0, 1.0);
  // window pixels (y up) per local unit along x and along y, and back
  mat2 toPixels = mat2(mvp[0].xy * 0.5 * uResolution, mvp[1].xy * 0.5 * uResolution);
  // as wide as the turned quad's extent along the window's axes: every pixel centre inside the quad is inside
  // the point (a pixel a point shades is one whose centre it holds), with 0.01 px for rounding and no more:
  // SwiftShader shades every pixel of the point, and a 2 px sprite's point of 2.8 px holds half the pixels
  // that one of 3.8 px would
  vec2 d1 = toPixels * vec2(c * extent.x - s * extent.y, s * extent.x + c * extent.y);
  vec2 d2 = toPixels * vec2(c * extent.x + s * extent.y, s * extent.x - c * extent.y);
  float size = 2.0 * max(max(abs(d1.x), abs(d2.x)), max(abs(d1.y), abs(d2.y))) + 0.01;
  gl_PointSize = size;
  // gl_PointCoord (0..1, y down) to where in the quad (0..1 from corner 0 to corner 2), one affine map:
  // window pixels from the centre, back to local units, turned back by the angle, over the quad's size
  mat2 unturn = mat2(c, -s, s, c);
  mat2 toQuad = mat2(1.0 / sfQuad.z, 0.0, 0.0, 1.0 / sfQuad.w) * unturn * inverse2(toPixels) * mat2(size, 0.0, 0.0, -size);
  vToQuad = vec4(toQuad[0], toQuad[1]);
  vQuadAt = vec2(0.5) - toQuad * vec2(0.5);
  vColor = ${host.color};${pickFrame}
}
`;
}

/**
 * The fragment shader: the texture frame's texel where the pixel falls in the turned quad, times the colour.
 * `frames` as for the vertex shader (> 0: the frame the vertex shader picked, an axis-aligned rectangle).
 */
export function pointSpriteFragmentShader(dialect: GlslDialect = 300, frames = 0): string {
  const v3 = dialect === 300;
  const uv =
    frames > 0
      ? 'vec2 uv = vFrame.xy + (vFrame.zw - vFrame.xy) * q;'
      : 'vec2 uv = sfUv01.xy + (sfUv01.zw - sfUv01.xy) * q.x + (sfUv23.zw - sfUv01.xy) * q.y;';
  return /* glsl */ `${v3 ? '#version 300 es\nprecision highp float;' : '#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\nprecision mediump float;\n#endif'}
${v3 ? 'flat in vec4 vToQuad;\nflat in vec2 vQuadAt;\nflat in vec4 vColor;' : 'varying vec4 vToQuad;\nvarying vec2 vQuadAt;\nvarying vec4 vColor;'}
${frames > 0 ? `${v3 ? 'flat in' : 'varying'} vec4 vFrame;` : 'uniform vec4 sfUv01;\nuniform vec4 sfUv23;'}
uniform sampler2D uTexture;
${v3 ? 'out vec4 finalColor;\n' : ''}
void main() {
  vec2 q = mat2(vToQuad.xy, vToQuad.zw) * gl_PointCoord + vQuadAt;
  if (q.x < 0.0 || q.x >= 1.0 || q.y < 0.0 || q.y >= 1.0) discard;
  // the texture frame's uvs: corner 0 (x0, y0), 1 (x1, y1) along x, 3 (x3, y3) along y (or, per entity, the
  // picked frame's top left and bottom right)
  ${uv}
  ${v3 ? 'finalColor = texture(uTexture, uv) * vColor;' : 'gl_FragColor = texture2D(uTexture, uv) * vColor;'}
}
`;
}
