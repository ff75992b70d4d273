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

export const SCALE = 16;
export const WIDTH = 192; // 768 bytes a row: a multiple of the 256 copyTextureToBuffer wants
export const HEIGHT = 160;

/** A WebGPU renderer; throws when Pixi made no WebGPU device (a browser without WebGPU). */
export async function createWebGpuStage(): Promise<WebGpuStage> {
  const renderer = new WebGPURenderer();
  await renderer.init({ width: WIDTH, height: HEIGHT, background: 0x000000, antialias: false });
  const device = (renderer as unknown as { gpu?: { device?: GPUDevice } }).gpu?.device;
  if (device === undefined) throw new Error('Pixi made no WebGPU device: this browser has no WebGPU adapter (see scripts/probe-webgpu.mjs)');
  const errors: string[] = [];
  device.addEventListener('uncapturederror', (event) => errors.push((event as GPUUncapturedErrorEvent).error.message));
  void device.lost.then((info) => errors.push(`device lost: ${info.message}`));
  const readback = device.createBuffer({ size: WIDTH * HEIGHT * 4, usage: COPY_DST | MAP_READ });

  return {
    renderer,
    device,
    /** Renders `world` (scaled to pixels, the world shifted by `origin`) into a texture and reads it back: RGBA, top row first. */
    async pixels(world: Container, origin: [number, number] = [0, 0]): Promise<Uint8Array> {
      const stage = new Container();
      world.scale.set(SCALE);
      world.position.set(-origin[0] * SCALE, -origin[1] * SCALE);
      stage.addChild(world);
      const target = RenderTexture.create({ width: WIDTH, height: HEIGHT });
      renderer.render({ container: stage, target, clear: true, clearColor: [0, 0, 0, 1] });
      stage.removeChild(world);
      const texture = renderer.texture.getGpuSource(target.source);
      const encoder = device.createCommandEncoder();
      encoder.copyTextureToBuffer({ texture }, { buffer: readback, bytesPerRow: WIDTH * 4 }, { width: WIDTH, height: HEIGHT });
      device.queue.submit([encoder.finish()]);
      await readback.mapAsync(READ);
      const pixels = new Uint8Array(readback.getMappedRange().slice(0));
      readback.unmap();
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
