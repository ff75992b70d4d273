/**
 * The PixiJS WebGPU tests' stage: Pixi v8's WebGPURenderer on a WebGPU device (Dawn's SwiftShader adapter in
 * headless Chromium, docs/webgpu.md), drawing into a RenderTexture that is read back with the device's own
 * copy (`copyTextureToBuffer`, `mapAsync`). Pixi's `extract` draws through a `'webgpu'` canvas, which loses the
 * device here, so the stage never presents anything.
 */
import { Container, RenderTexture, WebGPURenderer } from 'pixi.js';

// WebGPU's flags by value (TypeScript's DOM library declares their types, not the GPUBufferUsage and GPUMapMode objects)
const COPY_DST = 0x8;
const MAP_READ = 0x1;
const READ = 0x1;

/** The motion tests' picture: pixels a world unit, and its size. */
export const SCALE = 16;
export const WIDTH = 192;
export const HEIGHT = 160;

/**
 * A WebGPU renderer drawing `width` × `height` pictures, `scale` pixels a world unit; throws when Pixi made no
 * WebGPU device (a browser without WebGPU).
 */
export async function createWebGpuStage(width = WIDTH, height = HEIGHT, scale = SCALE): Promise<WebGpuStage> {
  const renderer = new WebGPURenderer();
  await renderer.init({ width, height, background: 0x000000, antialias: false });
  const device = (renderer as unknown as { gpu?: { device?: GPUDevice } }).gpu?.device;
  if (device === undefined) throw new Error('Pixi made no WebGPU device: this browser has no WebGPU adapter (see scripts/probe-webgpu.mjs)');
  const errors: string[] = [];
  device.addEventListener('uncapturederror', (event) => errors.push((event as GPUUncapturedErrorEvent).error.message));
  void device.lost.then((info) => errors.push(`device lost: ${info.message}`));
  const row = width * 4;
  const paddedRow = Math.ceil(row / 256) * 256; // copyTextureToBuffer's rows are whole multiples of 256 bytes
  const readback = device.createBuffer({ size: paddedRow * height, usage: COPY_DST | MAP_READ });

  return {
    renderer,
    device,
    /** Renders `world` (scaled to pixels, the world shifted by `origin`) into a texture and reads it back: RGBA, top row first. */
    async pixels(world: Container, origin: [number, number] = [0, 0]): Promise<Uint8Array> {
      const stage = new Container();
      world.scale.set(scale);
      world.position.set(-origin[0] * scale, -origin[1] * scale);
      stage.addChild(world);
      const target = RenderTexture.create({ width, height });
      renderer.render({ container: stage, target, clear: true, clearColor: [0, 0, 0, 1] });
      stage.removeChild(world);
      const texture = renderer.texture.getGpuSource(target.source);
      const encoder = device.createCommandEncoder();
      encoder.copyTextureToBuffer({ texture }, { buffer: readback, bytesPerRow: paddedRow }, { width, height });
      device.queue.submit([encoder.finish()]);
      await readback.mapAsync(READ);
      const mapped = new Uint8Array(readback.getMappedRange());
      const pixels = new Uint8Array(row * height);
      for (let y = 0; y < height; y++) pixels.set(mapped.subarray(y * paddedRow, y * paddedRow + row), y * row);
      readback.unmap();
      if (texture.format.startsWith('bgra')) for (let p = 0; p < pixels.length; p += 4) [pixels[p], pixels[p + 2]] = [pixels[p + 2]!, pixels[p]!];
      target.destroy(true);
      if (errors.length > 0) throw new Error(`WebGPU errors: ${errors.join('\n')}`);
      return pixels;
    },
    dispose() {
      readback.destroy();
      renderer.destroy();
    },
  };
}

export interface WebGpuStage {
  readonly renderer: WebGPURenderer;
  readonly device: GPUDevice;
  pixels(world: Container, origin?: [number, number]): Promise<Uint8Array>;
  dispose(): void;
}
