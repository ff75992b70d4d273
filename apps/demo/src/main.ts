import { createRuntime, type FieldViews, type Runtime } from 'steadyframe';
import { CAPACITY, DEFAULT_COUNT, schema } from './schema.ts';
import type { Commands } from './sim.worker.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function showProblem(message: string): void {
  const problem = $<HTMLParagraphElement>('problem');
  problem.textContent = message;
  problem.hidden = false;
  $('stats').textContent = '';
}

/** Sizes a canvas's backing store to its CSS size and returns its 2D context. */
function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const scale = window.devicePixelRatio || 1;
  canvas.width = Math.round(canvas.clientWidth * scale);
  canvas.height = Math.round(canvas.clientHeight * scale);
  return canvas.getContext('2d', { alpha: false })!;
}

/** Every body as a small square with a tick mark showing its rotation: two paths, whatever the count. */
function drawBodies(ctx: CanvasRenderingContext2D, fields: FieldViews<typeof schema>, count: number, hue: string): void {
  const { width, height } = ctx.canvas;
  const half = Math.min(width, height) / 2;
  const size = Math.max(2, half / 90);
  ctx.fillStyle = '#0a0d10';
  ctx.fillRect(0, 0, width, height);
  const { position, angle } = fields;
  ctx.beginPath();
  for (let i = 0; i < count; i++) {
    const x = width / 2 + position[2 * i]! * half * 0.95;
    const y = height / 2 + position[2 * i + 1]! * half * 0.95;
    ctx.rect(x - size / 2, y - size / 2, size, size);
  }
  ctx.fillStyle = hue;
  ctx.fill();
  ctx.beginPath();
  for (let i = 0; i < count; i++) {
    const x = width / 2 + position[2 * i]! * half * 0.95;
    const y = height / 2 + position[2 * i + 1]! * half * 0.95;
    const a = angle[i]!;
    ctx.moveTo(x, y);
    ctx.lineTo(x + Math.cos(a) * size * 1.8, y + Math.sin(a) * size * 1.8);
  }
  ctx.strokeStyle = '#ffffffb0';
  ctx.lineWidth = Math.max(1, size / 3);
  ctx.stroke();
}

async function main(): Promise<void> {
  let runtime: Runtime<typeof schema, Commands>;
  try {
    runtime = await createRuntime<typeof schema, Commands>({
      worker: new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' }),
      schema,
      capacity: CAPACITY,
    });
  } catch (error) {
    showProblem(error instanceof Error ? error.message : String(error));
    return;
  }
  (window as unknown as { steadyframe: unknown }).steadyframe = runtime; // for the e2e test and the curious

  const raw = context($<HTMLCanvasElement>('raw'));
  const smooth = context($<HTMLCanvasElement>('smooth'));
  const stats = $<HTMLPreElement>('stats');
  let paused = false;
  let frames = 0;
  let lastReport = performance.now();
  let fps = 0;

  const tickRate = $<HTMLInputElement>('tickRate');
  tickRate.addEventListener('input', () => {
    $<HTMLOutputElement>('tickRateOut').textContent = `${tickRate.value} Hz`;
    void runtime.setTickRate(Number(tickRate.value));
  });
  $<HTMLSelectElement>('count').addEventListener('change', (e) => {
    void runtime.commands.setCount(Number((e.target as HTMLSelectElement).value));
  });
  $<HTMLSelectElement>('timeScale').addEventListener('change', (e) => {
    void runtime.setTimeScale(Number((e.target as HTMLSelectElement).value));
  });
  const pauseButton = $<HTMLButtonElement>('pause');
  const stepButton = $<HTMLButtonElement>('step');
  pauseButton.addEventListener('click', () => {
    paused = !paused;
    pauseButton.textContent = paused ? 'resume' : 'pause';
    stepButton.disabled = !paused;
    void (paused ? runtime.pause() : runtime.resume());
  });
  stepButton.addEventListener('click', () => void runtime.stepOnce());

  await runtime.commands.setCount(DEFAULT_COUNT);
  await runtime.start();

  const loop = (timestamp: number): void => {
    requestAnimationFrame(loop);
    // interpolated at this frame's time; the runtime also paces frames and tells the worker when the next is due
    const frame = runtime.frame(timestamp);
    if (frame === null) return; // the adaptive render interval skips this refresh
    const { alpha, tick, count } = frame;
    drawBodies(smooth, frame.fields, count, '#4fc3f7');
    // the same world, newest tick only: what a renderer without interpolation shows
    const newest = runtime.sample(Number.POSITIVE_INFINITY);
    drawBodies(raw, newest.fields, newest.count, '#ef9a6a');

    frames++;
    if (timestamp - lastReport >= 500) {
      fps = (frames * 1000) / (timestamp - lastReport);
      frames = 0;
      lastReport = timestamp;
      const lock = runtime.reader.stats;
      stats.textContent =
        `${fps.toFixed(0)} fps · tick ${tick} · alpha ${alpha.toFixed(2)} · ${count} bodies · ` +
        `lock: ${lock.acquires} acquires, ${lock.spins} spins, ${lock.misses} misses · ` +
        `crossOriginIsolated ${String(crossOriginIsolated)}`;
    }
  };
  requestAnimationFrame(loop);
}

void main();
