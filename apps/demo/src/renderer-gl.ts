/**
 * The WebGL2 renderer. Each frame uploads the interpolated position and angle runs as they are (the runtime's
 * render buffer is a plain ArrayBuffer, ready for the GPU) and draws every body in one call, as one point
 * each: the vertex shader places it, the fragment shader cuts a disc with a bright nose toward its angle, so
 * spin shows. One vertex per body is as lean as a draw gets, and unlike a small instanced quad it stays fast
 * on software GL (SwiftShader, as in headless Chromium, pays per instance: ARCHITECTURE.md, "Measurements
 * behind the code"). Entity 0, the spinner, is a second draw: one quad, placed from uniforms.
 */
import type { FieldViews } from 'steadyframe';
import { BOX_X, BOX_Y, CAPACITY, type DemoSchema } from './schema.ts';
import { fitCanvas, SPINNER_HALF, type BodyRenderer, type CssSize, type Palette, type PanelCanvas } from './view.ts';

/** Bodies: one point per body, sized to the body; the fragment shader cuts a disc and turns its nose. */
const BODY_VERTEX = `#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in float a_angle;
uniform vec2 u_clip;        // world units to clip space
uniform float u_pointSize;  // a body's diameter, pixels
uniform vec3 u_colorA;
uniform vec3 u_colorB;
out vec3 v_color;
out vec2 v_nose;            // the body's heading, in point-sprite coordinates (y down)
void main() {
  gl_Position = vec4(a_position * u_clip, 0.0, 1.0);
  gl_PointSize = u_pointSize;
  v_nose = vec2(cos(a_angle), -sin(a_angle));
  float h = fract(sin(float(gl_VertexID) * 12.9898) * 43758.5453);
  v_color = mix(u_colorA, u_colorB, h);
}`;

const BODY_FRAGMENT = `#version 300 es
precision highp float;
in vec3 v_color;
in vec2 v_nose;
out vec4 outColor;
void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  if (dot(p, p) > 1.0) discard;
  // a bright nose from the centre toward the heading: spin shows on bodies big enough to see it
  float along = dot(p, v_nose);
  float across = abs(p.x * v_nose.y - p.y * v_nose.x);
  vec3 color = along > 0.05 && across < 0.32 ? mix(v_color, vec3(1.0), 0.7) : v_color;
  outColor = vec4(color, 1.0);
}`;

/** The spinner: one quad, placed and turned from uniforms read off entity 0. */
const SPINNER_VERTEX = `#version 300 es
uniform vec2 u_clip;
uniform vec2 u_center;
uniform float u_angle;
uniform vec2 u_half;        // half length, half width, world units
out vec2 v_local;
void main() {
  // the quad's corners from the vertex number, as a triangle strip: (-1,-1) (1,-1) (-1,1) (1,1)
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
  vec2 local = corner * u_half;
  float c = cos(u_angle);
  float s = sin(u_angle);
  gl_Position = vec4((u_center + vec2(c * local.x - s * local.y, s * local.x + c * local.y)) * u_clip, 0.0, 1.0);
  v_local = corner * u_half;
}`;

const SPINNER_FRAGMENT = `#version 300 es
precision highp float;
in vec2 v_local;
uniform vec2 u_half;
uniform vec3 u_color;
out vec4 outColor;
void main() {
  // a bar with a yellow tip at +x and a dark hub: which way it points is plain at a glance
  if (length(v_local) < u_half.y * 0.55) { outColor = vec4(0.08, 0.1, 0.12, 1.0); return; }
  vec3 bar = v_local.x > u_half.x * 0.62 ? vec3(1.0, 0.86, 0.35) : mix(u_color, vec3(1.0), 0.55);
  outColor = vec4(bar, 1.0);
}`;

const BACKGROUND = [0.035, 0.045, 0.058] as const;
const BOX = [0.07, 0.085, 0.105] as const;

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)!;
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`demo: shader: ${gl.getShaderInfoLog(shader) ?? ''}`);
  return shader;
}

function link(gl: WebGL2RenderingContext, vertex: string, fragment: string): WebGLProgram {
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, vertex));
  gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, fragment));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`demo: program: ${gl.getProgramInfoLog(program) ?? ''}`);
  return program;
}

/** A WebGL2 renderer for the canvas, or null where WebGL2 is missing (the caller falls back to Canvas2D). */
export function createGlRenderer(canvas: PanelCanvas, palette: Palette, size?: () => CssSize): BodyRenderer | null {
  const gl = canvas.getContext('webgl2', { antialias: false, alpha: false, depth: false, powerPreference: 'high-performance' });
  if (gl === null) return null;
  const bodies = link(gl, BODY_VERTEX, BODY_FRAGMENT);
  const spinner = link(gl, SPINNER_VERTEX, SPINNER_FRAGMENT);
  const at = (program: WebGLProgram, name: string) => gl.getUniformLocation(program, name);
  const b = { clip: at(bodies, 'u_clip'), pointSize: at(bodies, 'u_pointSize') };
  const s = { clip: at(spinner, 'u_clip'), center: at(spinner, 'u_center'), angle: at(spinner, 'u_angle'), half: at(spinner, 'u_half') };
  const maxPoint = (gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE) as Float32Array)[1] ?? 1;

  // the attribute buffers, sized for the whole capacity once: a frame only uploads the live part
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const positions = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, positions);
  gl.bufferData(gl.ARRAY_BUFFER, CAPACITY * 2 * 4, gl.DYNAMIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  const angles = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, angles);
  gl.bufferData(gl.ARRAY_BUFFER, CAPACITY * 4, gl.DYNAMIC_DRAW);
  gl.enableVertexAttribArray(1);
  gl.vertexAttribPointer(1, 1, gl.FLOAT, false, 0, 0);

  gl.useProgram(bodies);
  gl.uniform3fv(at(bodies, 'u_colorA'), palette[0]);
  gl.uniform3fv(at(bodies, 'u_colorB'), palette[1]);
  gl.useProgram(spinner);
  gl.uniform3fv(at(spinner, 'u_color'), palette[0]);
  gl.uniform2f(s.half, SPINNER_HALF[0], SPINNER_HALF[1]);

  return {
    kind: 'webgl2',
    draw(fields: FieldViews<DemoSchema>, count: number): void {
      const view = fitCanvas(canvas, count, size?.());
      const { width, height, scale } = view;
      gl.viewport(0, 0, width, height);
      gl.clearColor(BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      // the box: a lighter rectangle the bodies bounce in
      const boxW = Math.round(2 * BOX_X * scale);
      const boxH = Math.round(2 * BOX_Y * scale);
      gl.enable(gl.SCISSOR_TEST);
      gl.scissor(Math.round((width - boxW) / 2), Math.round((height - boxH) / 2), boxW, boxH);
      gl.clearColor(BOX[0], BOX[1], BOX[2], 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.disable(gl.SCISSOR_TEST);
      if (count === 0) return;
      const clipX = (2 * scale) / width;
      const clipY = (2 * scale) / height;

      // bodies 1 .. count - 1: one upload of the live part of each run, one draw
      gl.bindBuffer(gl.ARRAY_BUFFER, positions);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, fields.position, 0, count * 2);
      gl.bindBuffer(gl.ARRAY_BUFFER, angles);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, fields.angle, 0, count);
      gl.useProgram(bodies);
      gl.uniform2f(b.clip, clipX, clipY);
      gl.uniform1f(b.pointSize, Math.min(maxPoint, Math.max(1, 2 * view.radius * scale)));
      gl.drawArrays(gl.POINTS, 1, count - 1);

      // the spinner, in front
      gl.useProgram(spinner);
      gl.uniform2f(s.clip, clipX, clipY);
      gl.uniform2f(s.center, fields.position[0]!, fields.position[1]!);
      gl.uniform1f(s.angle, fields.angle[0]!);
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    },
  };
}
