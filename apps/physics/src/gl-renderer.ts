/**
 * Which GPU draws the page, and whether it is software: the CPU rasterising every pixel (SwiftShader in headless
 * Chromium or with the GPU blocklisted, llvmpipe on Linux without a GPU driver). Then the browser runs animation
 * frames only as fast as the rasteriser finishes them, and the HUD's fps is that rate, not the runtime's.
 *
 * ```text
 *  WebGL   gl.RENDERER (unmasked: WEBGL_debug_renderer_info)  ─┐
 *  WebGPU  GPUAdapterInfo: vendor / architecture / device     ─┴─▶ { name, software: a rasteriser's name or null }
 *          (isFallbackAdapter: software, whatever its name)
 * ```
 */

/** Software rasterisers, as their renderer strings name them (matched without case: Dawn says "swiftshader"). */
const SOFTWARE = ['SwiftShader', 'llvmpipe', 'softpipe', 'lavapipe', 'swrast', 'Software Rasterizer', 'Basic Render Driver'];

export interface GlRenderer {
  /** The renderer string (unmasked where the browser allows it), or the WebGPU adapter's description. */
  readonly name: string;
  /** The short name of a software rasteriser, or null for a GPU. */
  readonly software: string | null;
}

/** The software rasteriser `name` names, as SOFTWARE spells it, or null. */
function softwareIn(name: string): string | null {
  const lower = name.toLowerCase();
  return SOFTWARE.find((s) => lower.includes(s.toLowerCase())) ?? null;
}

export function glRenderer(gl: WebGLRenderingContext | WebGL2RenderingContext): GlRenderer {
  let name = String(gl.getParameter(gl.RENDERER));
  // Chromium masks RENDERER as "WebKit WebGL" and gives the real one through the debug extension (Firefox puts
  // it in RENDERER and warns that the extension is deprecated: ask only when masked)
  if (name === 'WebKit WebGL') {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    if (info !== null) name = String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL));
  }
  return { name, software: softwareIn(name) };
}

/**
 * The same for a WebGPU adapter. Browsers tell little about it (vendor and architecture, often empty strings on
 * a real GPU); a fallback adapter (`isFallbackAdapter`: Dawn's SwiftShader, Windows' WARP) is a software one
 * whatever it is called.
 */
export function webgpuAdapter(info: GPUAdapterInfo): GlRenderer {
  const parts = [info.vendor, info.architecture, info.device, info.description].filter((part) => part !== '');
  const name = parts.length === 0 ? 'a WebGPU adapter (it gives no name)' : parts.join(' / ');
  const fallback = (info as GPUAdapterInfo & { isFallbackAdapter?: boolean }).isFallbackAdapter === true;
  return { name, software: softwareIn(name) ?? (fallback ? 'fallback adapter' : null) };
}

/** What the fps and interval readings mean on a software rasteriser, and which scene runs there, for the HUD. */
export function softwareNote(software: string, scene: 'pile' | 'rain'): string {
  return (
    `The CPU draws every pixel (${software}), so the browser runs only as many frames as it can rasterise, and ` +
    'fps counts those. The interval is what the pacer asks for, from the page\u2019s own work per frame. With a ' +
    'GPU, fps follows the interval. ' +
    (scene === 'rain'
      ? 'So this is the rain: 300 bodies and a heap of 40 every 2 s, which moves between two frames (?scene=pile: the 3,000-body pile, which settles between them).'
      : 'The pile settles between two frames here (?scene=rain: a scene that keeps moving).')
  );
}
