/**
 * (The WebGL half of apps/physics/src/gl-renderer.ts, which also names WebGPU adapters: each app stands alone,
 * to be copied.)
 * Which GL renderer draws the page, and whether it is software: the CPU rasterising every pixel (SwiftShader in
 * headless Chromium or with the GPU blocklisted, llvmpipe on Linux without a GPU driver). Then the browser runs
 * animation frames only as fast as the rasteriser finishes them, and the HUD's fps is that rate, not the runtime's.
 */

/** Software rasterisers, as their renderer strings name them. */
const SOFTWARE = /SwiftShader|llvmpipe|softpipe|lavapipe|swrast|Software Rasterizer|Basic Render Driver/i;

export interface GlRenderer {
  /** The renderer string (unmasked where the browser allows it). */
  readonly name: string;
  /** The short name of a software rasteriser, or null for a GPU. */
  readonly software: string | null;
}

export function glRenderer(gl: WebGLRenderingContext | WebGL2RenderingContext): GlRenderer {
  let name = String(gl.getParameter(gl.RENDERER));
  // Chromium masks RENDERER as "WebKit WebGL" and gives the real one through the debug extension (Firefox puts
  // it in RENDERER and warns that the extension is deprecated: ask only when masked)
  if (name === 'WebKit WebGL') {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    if (info !== null) name = String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL));
  }
  return { name, software: SOFTWARE.exec(name)?.[0] ?? null };
}

/** The same, from a throwaway context on the page (the render worker's GL is the same GPU's), or null without WebGL. */
export function probeGlRenderer(): GlRenderer | null {
  const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
  if (gl === null) return null;
  const found = glRenderer(gl);
  gl.getExtension('WEBGL_lose_context')?.loseContext(); // give the context back now, not at the next GC
  return found;
}

/** What the fps and interval readings mean on a software rasteriser, for the HUD. */
export function softwareNote(software: string): string {
  return (
    `The CPU draws every pixel (${software}), so the browser runs only as many frames as it can rasterise, and ` +
    'fps counts those. The interval is what the pacer asks for, from the page\u2019s own work per frame. With a ' +
    'GPU, fps follows the interval.'
  );
}
