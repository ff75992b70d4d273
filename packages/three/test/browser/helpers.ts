/**
 * Shared by the three.js adapter's browser tests: a real worker (motion-helpers.ts: the fixture's runtime, times and
 * picture checks), a real WebGL renderer (SwiftShader here).
 */
import {
  OrthographicCamera,
  PlaneGeometry,
  Scene,
  WebGLRenderer,
  WebGLRenderTarget,
  type Object3D,
} from 'three';
import { ARM, markersIn, SQUARE, VIEW, type Marker, type View } from './motion-helpers.ts';

export * from './motion-helpers.ts';

/** A 0.5 x 0.5 square centred at (1, 0, 0) in the entity's frame, facing +z. */
export function markerGeometry(): PlaneGeometry {
  return new PlaneGeometry(SQUARE, SQUARE).translate(ARM, 0, 0);
}

/** A renderer drawing a fixed orthographic window (`view`) into a small render target, failing on any shader error. */
export function createStage(view: View = VIEW) {
  const width = (view.right - view.left) * view.scale;
  const height = (view.top - view.bottom) * view.scale;
  const renderer = new WebGLRenderer({ antialias: false });
  const shaderErrors: string[] = [];
  renderer.debug.onShaderError = (gl, program) => {
    shaderErrors.push(gl.getProgramInfoLog(program) ?? 'shader error');
  };
  const target = new WebGLRenderTarget(width, height);
  const camera = new OrthographicCamera(view.left, view.right, view.top, view.bottom, 0.1, 100);
  camera.position.z = 10;
  const scene = new Scene();
  const pixels = new Uint8Array(width * height * 4);

  /** Renders the scene and returns the RGBA pixels, bottom row first. */
  function render(): Uint8Array {
    renderer.setRenderTarget(target);
    renderer.setClearColor(0x000000, 1);
    renderer.render(scene, camera);
    renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
    renderer.setRenderTarget(null);
    if (shaderErrors.length > 0) throw new Error(`shader errors: ${shaderErrors.join('\n')}`);
    return pixels;
  }

  /**
   * Renders and finds each row's drawn marker: the centroid of the lit pixels in the band around y = ROW * i,
   * in world units, with the count of pixels and their mean red. null where nothing was drawn. Sensitive to
   * alpha: the motion moves a marker a whole unit (16 pixels) per tick.
   */
  function markers(rows: number): Array<Marker | null> {
    return markersIn(render(), view, rows);
  }

  return {
    renderer,
    scene,
    camera,
    render,
    markers,
    add(object: Object3D) {
      scene.add(object);
    },
    dispose() {
      target.dispose();
      renderer.dispose();
    },
  };
}
