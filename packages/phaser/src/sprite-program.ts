/**
 * The GPU path's program and buffers: `steadyframe/adapter`'s point-sprite shader in GLSL ES 1.00 (Phaser draws
 * with WebGL 1), with Phaser's camera transform and projection folded into one matrix on the CPU (`uMvp`), the
 * drawing context's size (`uResolution`) and one colour (`uColor`: the Extern's alpha, premultiplied); the state
 * buffers and where each attribute points, made once per context.
 */
import { pointSpriteFragmentShader, pointSpriteVertexShader, type AngleMode, type MirrorChannel } from 'steadyframe/adapter';

const HOST = {
  declarations: 'uniform mat3 uMvp;\nuniform vec2 uResolution;\nuniform vec4 uColor;',
  mvp: 'uMvp',
  color: 'uColor',
};

const UNIFORMS = ['uMvp', 'uResolution', 'uColor', 'sfAlpha', 'sfPrevCount', 'sfFlip', 'sfSnaps', 'sfQuad', 'sfUv01', 'sfUv23', 'sfFrames', 'uTexture'] as const;
const ATTRIBUTES = ['aIndex', 'aPosA', 'aPosB', 'aGenA', 'aGenB', 'aAngleA', 'aAngleB', 'aFrameA', 'aFrameB'] as const;

/** A linked program and where its uniforms and attributes are (-1 or null: one this program has not). */
export interface SpriteProgram {
  readonly gl: WebGLRenderingContext;
  readonly program: WebGLProgram;
  readonly uniforms: Record<(typeof UNIFORMS)[number], WebGLUniformLocation | null>;
  readonly attributes: Record<(typeof ATTRIBUTES)[number], number>;
}

function compile(gl: WebGLRenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)!;
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
    throw new Error(`@steadyframe/phaser: the sprite shader did not compile: ${gl.getShaderInfoLog(shader)}`);
  }
  return shader;
}

/** Compiles and links the program for one angle mode, and `frames` frames per entity (0: one for all), in `gl`. */
export function createSpriteProgram(gl: WebGLRenderingContext, angle: AngleMode, frames: number): SpriteProgram {
  const program = gl.createProgram()!;
  const vertex = compile(gl, gl.VERTEX_SHADER, pointSpriteVertexShader(angle, HOST, 100, frames));
  const fragment = compile(gl, gl.FRAGMENT_SHADER, pointSpriteFragmentShader(100, frames));
  gl.attachShader(program, vertex);
  gl.attachShader(program, fragment);
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
    throw new Error(`@steadyframe/phaser: the sprite shader did not link: ${gl.getProgramInfoLog(program)}`);
  }
  gl.deleteShader(vertex); // flagged: freed with the program
  gl.deleteShader(fragment);
  const uniforms = Object.fromEntries(UNIFORMS.map((n) => [n, gl.getUniformLocation(program, n)])) as SpriteProgram['uniforms'];
  const attributes = Object.fromEntries(ATTRIBUTES.map((n) => [n, gl.getAttribLocation(program, n)])) as SpriteProgram['attributes'];
  return { gl, program, uniforms, attributes };
}

/** A state channel of the GPU pair mirror (its schema field, or null: the generations; values per entity), and its attributes' name less A/B. */
export interface SpriteChannel extends MirrorChannel {
  readonly attribute: 'aPos' | 'aAngle' | 'aFrame' | 'aGen';
}

/** The GL objects a sprite set draws with in one context (made again after a lost context is restored). */
export interface SpriteGl extends SpriteProgram {
  /** [channel][A or B]: a buffer per state of each channel. */
  readonly buffers: WebGLBuffer[][];
  /** 0, 1, 2 ...: each point's entity index (GLSL ES 1.00 has no gl_VertexID). */
  readonly index: WebGLBuffer;
  /** The vertex attributes each draw points at these buffers (those the program has). */
  readonly pointers: readonly { readonly at: number; readonly buffer: WebGLBuffer; readonly size: number; readonly type: number }[];
}

/** The program, two buffers per channel (unsized), the index buffer, and where each attribute points. */
export function createSpriteGl(gl: WebGLRenderingContext, angle: AngleMode, frames: number, channels: readonly SpriteChannel[]): SpriteGl {
  const program = createSpriteProgram(gl, angle, frames);
  const buffers = channels.map(() => [gl.createBuffer()!, gl.createBuffer()!]);
  const index = gl.createBuffer()!;
  const pointers: SpriteGl['pointers'][number][] = [{ at: program.attributes.aIndex, buffer: index, size: 1, type: gl.FLOAT }];
  channels.forEach(({ field, width, attribute: base }, k) => {
    // a generation (uint32) as its two 16-bit halves: exact in float, compared as a vec2
    const [size, type]: [number, number] = field === null ? [2, gl.UNSIGNED_SHORT] : [width, gl.FLOAT];
    pointers.push({ at: program.attributes[`${base}A`], buffer: buffers[k]![0]!, size, type });
    pointers.push({ at: program.attributes[`${base}B`], buffer: buffers[k]![1]!, size, type });
  });
  return { ...program, buffers, index, pointers: pointers.filter((p) => p.at >= 0) };
}
