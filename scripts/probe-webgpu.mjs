// Does this machine's Chromium expose WebGPU, and with which flags? Launches Debian's Chromium (never a
// downloaded one) through playwright once per variant of launch flags, opens a tiny page on 127.0.0.1 (a secure
// context, which navigator.gpu needs), and in it:
//   1. navigator.gpu.requestAdapter(), the adapter's info; adapter.requestDevice()
//   2. a render pass into a 64×64 rgba8unorm texture: clear to blue, one red triangle over the lower-left half,
//      read back with copyTextureToBuffer + mapAsync; two pixels checked, one on each side of the diagonal
//        (0,0) ┌──────────┐        pixel (56, 8): blue (the clear)
//              │ ╲  blue  │        pixel (8, 56): red (the triangle)
//              │red ╲     │
//              └──────────┘ (63,63)
//   3. timing: the median ms of one trivial pass (clear + triangle, 256×256) from submit to
//      onSubmittedWorkDone, and of one pass plus a 4-byte-a-pixel readback of it
//   4. the same pass into a canvas's 'webgpu' context (what three.js's WebGPURenderer draws into on screen),
//      read back by drawing the canvas into a 2D canvas; then whether the device outlives presenting it
// Prints one block a variant and exits non-zero when no variant draws the right pixels offscreen.
//   node scripts/probe-webgpu.mjs            every variant
//   node scripts/probe-webgpu.mjs unsafe     the variants whose name contains "unsafe"
//   node scripts/probe-webgpu.mjs --json     the results as JSON
// Wrap it in `flock /tmp/steadyframe-browser.lock` on a shared machine.
import { createServer } from 'node:http';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE, WEBGPU_CHROMIUM_ARGS, xvfbDisplay } from './engines.mjs';

const LAVAPIPE_ICD = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

/**
 * The launch variants. `args` follow CHROMIUM_ARGS; `env` is added to the browser's environment; `headful`
 * runs it in a private Xvfb display instead of headless. Chromium's headless mode here is the new one (the old
 * one left the chromium binary in version 132); the probe prints the user agent to show which ran.
 */
const VARIANTS = [
  { name: 'no flags', args: [] },
  { name: 'unsafe-webgpu', args: ['--enable-unsafe-webgpu'] },
  { name: 'unsafe-webgpu + Vulkan feature', args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan'] },
  { name: 'unsafe-webgpu + use-vulkan=swiftshader', args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader'] },
  { name: 'unsafe-webgpu + use-webgpu-adapter=swiftshader', args: ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'] },
  { name: 'unsafe-webgpu + use-angle=swiftshader', args: ['--enable-unsafe-webgpu', '--use-angle=swiftshader'] },
  { name: 'unsafe-webgpu + use-angle=vulkan', args: ['--enable-unsafe-webgpu', '--use-angle=vulkan'] },
  {
    name: 'unsafe-webgpu + ANGLE on SwiftShader Vulkan',
    args: ['--enable-unsafe-webgpu', '--use-angle=vulkan', '--enable-features=Vulkan', '--use-vulkan=swiftshader'],
  },
  {
    name: 'unsafe-webgpu + ANGLE on Mesa lavapipe',
    args: ['--enable-unsafe-webgpu', '--use-angle=vulkan', '--enable-features=Vulkan', '--use-vulkan=native', '--ignore-gpu-blocklist'],
    env: { VK_ICD_FILENAMES: LAVAPIPE_ICD },
  },
  {
    name: 'unsafe-webgpu + Mesa lavapipe (native Vulkan)',
    args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=native', '--ignore-gpu-blocklist'],
    env: { VK_ICD_FILENAMES: LAVAPIPE_ICD },
  },
  { name: 'unsafe-webgpu, headful in Xvfb', args: ['--enable-unsafe-webgpu'], headful: true },
  {
    name: 'unsafe-webgpu + ANGLE on SwiftShader Vulkan, headful in Xvfb',
    args: ['--enable-unsafe-webgpu', '--use-angle=vulkan', '--enable-features=Vulkan', '--use-vulkan=swiftshader'],
    headful: true,
  },
];

/** Runs in the page: everything the probe asks of WebGPU, as plain data; a step that throws is named. */
async function probeInPage() {
  const result = { userAgent: navigator.userAgent, secureContext: isSecureContext, gpu: 'gpu' in navigator, webgl2: webgl2(), step: 'requestAdapter' };
  try {
    return await probeSteps(result);
  } catch (error) {
    return { ...result, failed: `${result.step}: ${error.name}: ${error.message}` };
  }

  // (inside probeInPage: page.evaluate sends only this function's source to the page)

  // WebGL 2 in the same browser (three.js's fallback, and our WebGL path): its renderer string, a clear read back
  function webgl2() {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (gl === null) return { ok: false, renderer: null };
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    gl.clearColor(0, 1, 0, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    const pixel = new Uint8Array(4);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    return { ok: pixel.join() === '0,255,0,255', renderer: debug === null ? gl.getParameter(gl.RENDERER) : gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) };
  }

  async function probeSteps(result) {
    if (!result.gpu) return result;
    const adapter = await navigator.gpu.requestAdapter();
    if (adapter === null) return { ...result, adapter: null };
    const info = adapter.info ?? {};
    result.adapter = {
      vendor: info.vendor,
      architecture: info.architecture,
      device: info.device,
      description: info.description,
      fallback: info.isFallbackAdapter ?? null,
      features: [...adapter.features].sort(),
      maxTextureDimension2D: adapter.limits.maxTextureDimension2D,
      maxBufferSize: adapter.limits.maxBufferSize,
      maxVertexAttributes: adapter.limits.maxVertexAttributes,
    };
    result.step = 'requestDevice';
    const device = await adapter.requestDevice();
    const errors = [];
    result.errors = errors; // the same array: what the device reports before a later step throws shows too
    device.lost.then((info) => errors.push(`device lost (${info.reason}): ${info.message}`));
    device.addEventListener('uncapturederror', (event) => errors.push(event.error.message));
    result.device = true;
    result.preferredCanvasFormat = navigator.gpu.getPreferredCanvasFormat();

    const module = device.createShaderModule({
      code: /* wgsl */ `
        @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
          // the lower-left half of the target: (-1,-1), (1,-1), (-1,1)
          var corners = array<vec2f, 3>(vec2f(-1, -1), vec2f(1, -1), vec2f(-1, 1));
          return vec4f(corners[i], 0, 1);
        }
        @fragment fn fs() -> @location(0) vec4f { return vec4f(1, 0, 0, 1); }`,
    });
    const pipelines = new Map();
    const pipelineFor = (format) => {
      if (!pipelines.has(format)) {
        pipelines.set(
          format,
          device.createRenderPipeline({
            layout: 'auto',
            vertex: { module, entryPoint: 'vs' },
            fragment: { module, entryPoint: 'fs', targets: [{ format }] },
            primitive: { topology: 'triangle-list' },
          }),
        );
      }
      return pipelines.get(format);
    };
    const encodePass = (encoder, view, format) => {
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 1, a: 1 } }],
      });
      pass.setPipeline(pipelineFor(format));
      pass.draw(3);
      pass.end();
    };
    const target = (size) =>
      device.createTexture({ size: [size, size], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    // one pass into `texture`, copied into `buffer` (rows padded to 256 bytes), mapped: the RGBA bytes
    const drawAndRead = async (texture, buffer, size) => {
      const encoder = device.createCommandEncoder();
      encodePass(encoder, texture.createView(), 'rgba8unorm');
      encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow: Math.max(256, size * 4) }, [size, size]);
      device.queue.submit([encoder.finish()]);
      await buffer.mapAsync(GPUMapMode.READ);
      const bytes = new Uint8Array(buffer.getMappedRange().slice(0));
      buffer.unmap();
      return bytes;
    };
    const pixelAt = (bytes, rowBytes, x, y) => [...bytes.subarray(y * rowBytes + x * 4, y * rowBytes + x * 4 + 4)];

    // 2. the render pass, read back
    result.step = 'render pass';
    const small = target(64);
    const smallBuffer = device.createBuffer({ size: 256 * 64, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const bytes = await drawAndRead(small, smallBuffer, 64);
    const triangle = pixelAt(bytes, 256, 8, 56);
    const clear = pixelAt(bytes, 256, 56, 8);
    const same = (a, b) => a.every((v, i) => v === b[i]);
    result.renderPass = { triangle, clear, ok: same(triangle, [255, 0, 0, 255]) && same(clear, [0, 0, 255, 255]) };

    // 3. timing, after a warm-up: a pass to done, and a pass plus its readback
    result.step = 'timing';
    const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
    const big = target(256);
    const bigView = big.createView();
    const passTimes = [];
    for (let i = 0; i < 110; i++) {
      const start = performance.now();
      const encoder = device.createCommandEncoder();
      encodePass(encoder, bigView, 'rgba8unorm');
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
      if (i >= 10) passTimes.push(performance.now() - start);
    }
    const bigBuffer = device.createBuffer({ size: 256 * 4 * 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const readTimes = [];
    for (let i = 0; i < 33; i++) {
      const start = performance.now();
      await drawAndRead(big, bigBuffer, 256);
      if (i >= 3) readTimes.push(performance.now() - start);
    }
    result.timing = { passMs: median(passTimes), passAndReadbackMs: median(readTimes), passes: passTimes.length, readbacks: readTimes.length };
    // 4. a canvas's webgpu context, read back through a 2D canvas in the same task (until the frame is
    // presented, the canvas's image is its current texture), then whether the device outlives the presentation
    result.step = 'canvas context';
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 64;
    document.body.append(canvas);
    const context = canvas.getContext('webgpu');
    if (context === null) result.canvas = { ok: false, why: "getContext('webgpu') returned null" };
    else {
      const format = navigator.gpu.getPreferredCanvasFormat();
      context.configure({ device, format, alphaMode: 'opaque' });
      const encoder = device.createCommandEncoder();
      encodePass(encoder, context.getCurrentTexture().createView(), format);
      device.queue.submit([encoder.finish()]);
      const copy = document.createElement('canvas');
      copy.width = copy.height = 64;
      const two = copy.getContext('2d', { willReadFrequently: true });
      two.drawImage(canvas, 0, 0);
      const read = (x, y) => [...two.getImageData(x, y, 1, 1).data];
      const canvasTriangle = read(8, 56);
      const canvasClear = read(56, 8);
      result.canvas = { format, triangle: canvasTriangle, clear: canvasClear, ok: same(canvasTriangle, [255, 0, 0, 255]) && same(canvasClear, [0, 0, 255, 255]) };
      result.step = 'canvas context: after presenting';
      await new Promise((resolve) => requestAnimationFrame(resolve));
      await device.queue.onSubmittedWorkDone();
      result.canvas.deviceSurvived = true;
    }

    result.step = 'done';
    device.destroy();
    return result;
  }
}

async function runVariant(variant, url, executablePath) {
  const env = { ...process.env, ...(variant.env ?? {}) };
  if (variant.headful) env.DISPLAY = await xvfbDisplay();
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...variant.args], headless: !variant.headful, env });
  try {
    const page = await browser.newPage();
    const consoleLines = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    page.on('pageerror', (error) => consoleLines.push(error.message));
    await page.goto(url);
    const result = await page.evaluate(probeInPage).catch((error) => ({ failed: error.message.split('\n')[0] }));
    return { name: variant.name, args: [...CHROMIUM_ARGS, ...variant.args], env: variant.env ?? {}, headless: !variant.headful, browserVersion: browser.version(), ...result, console: consoleLines.slice(0, 5) };
  } finally {
    await browser.close();
  }
}

/** One block of text a variant: flags, adapter, device, the two pixel checks, the timings. */
function describe(result) {
  const lines = [`${result.name}`, `  flags: ${result.args.join(' ')}${Object.keys(result.env).length ? `  env: ${Object.entries(result.env).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`];
  lines.push(`  browser: ${result.browserVersion}, ${result.headless ? 'headless' : 'headful (Xvfb)'}${result.userAgent?.includes('HeadlessChrome') ? ' (user agent: HeadlessChrome)' : ''}`);
  if (result.webgl2) lines.push(`  WebGL 2: ${result.webgl2.ok ? 'PASS' : 'FAIL'} (${result.webgl2.renderer})`);
  if (result.failed) lines.push(`  FAILED in the page, at ${result.failed}`);
  if (!result.gpu) lines.push(`  navigator.gpu: absent (secure context: ${result.secureContext})`);
  else if (result.adapter === undefined) lines.push('  (no adapter reached)');
  else if (result.adapter === null) lines.push('  requestAdapter(): null');
  else {
    const a = result.adapter;
    lines.push(`  adapter: vendor=${a.vendor} architecture=${a.architecture} device=${a.device || '-'} description=${a.description || '-'} fallback=${a.fallback}`);
    lines.push(`  limits: maxTextureDimension2D=${a.maxTextureDimension2D} maxBufferSize=${a.maxBufferSize} maxVertexAttributes=${a.maxVertexAttributes}; ${a.features.length} features`);
    lines.push(`  device: ${result.device ? 'yes' : 'no'}; preferred canvas format ${result.preferredCanvasFormat}`);
    const pixels = (check) => `triangle ${check.triangle} clear ${check.clear}`;
    if (result.renderPass) lines.push(`  render pass + copyTextureToBuffer: ${result.renderPass.ok ? 'PASS' : 'FAIL'} (${pixels(result.renderPass)})`);
    const t = result.timing;
    if (t) lines.push(`  trivial pass 256x256, submit to done: median ${t.passMs.toFixed(3)} ms (${t.passes}); with readback: median ${t.passAndReadbackMs.toFixed(3)} ms (${t.readbacks})`);
    const c = result.canvas;
    if (c) lines.push(`  canvas 'webgpu' context: ${c.ok ? 'PASS' : 'FAIL'} (${c.why ?? pixels(c)}); device after presenting: ${c.deviceSurvived ? 'alive' : 'LOST'}`);
    if (result.errors?.length > 0) lines.push(`  device errors: ${result.errors.join(' | ')}`);
  }
  if (result.console.length > 0) lines.push(`  console: ${result.console.join(' | ')}`);
  return lines.join('\n');
}

const executablePath = findChromium();
if (executablePath === null) {
  console.error(MISSING_CHROMIUM_MESSAGE);
  process.exit(1);
}
const json = process.argv.includes('--json');
const filters = process.argv.slice(2).filter((arg) => arg !== '--json');
const chosen = VARIANTS.filter((variant) => filters.length === 0 || filters.some((filter) => variant.name.includes(filter)));
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end('<!doctype html><meta charset="utf-8"><title>WebGPU probe</title>');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const results = [];
for (const variant of chosen) {
  const result = await runVariant(variant, url, executablePath).catch((error) => ({ name: variant.name, args: variant.args, env: variant.env ?? {}, launchFailed: error.message.split('\n')[0] }));
  results.push(result);
  if (!json) console.log(result.launchFailed ? `${result.name}\n  did not launch: ${result.launchFailed}` : describe(result));
}
server.close();
const offscreen = results.filter((result) => result.renderPass?.ok);
const onCanvas = results.filter((result) => result.canvas?.ok && result.canvas.deviceSurvived);
const names = (list) => (list.length === 0 ? 'none' : list.map((result) => result.name).join('; '));
if (json) console.log(JSON.stringify(results, null, 2));
else {
  console.log(`\nWebGPU draws offscreen (render pass, copyTextureToBuffer) with: ${names(offscreen)}`);
  console.log(`WebGPU draws into a canvas and keeps its device with: ${names(onCanvas)}`);
  console.log(`(the WebGPU tests launch Chromium with WEBGPU_CHROMIUM_ARGS: ${WEBGPU_CHROMIUM_ARGS.join(' ')}, and draw offscreen)`);
}
process.exit(offscreen.length > 0 ? 0 : 1);
