/**
 * Suite 10, a PixiJS port: the official PixiJS "particle container" example (maggots wandering over the screen,
 * each turning, wobbling and wrapping round the edges), ported onto steadyframe as a new user would, from the
 * root README and packages/pixi/README.md alone, with default options (no `pacing`, no `interpolation`), and
 * measured side by side with the original in the same run at 50k maggots.
 *
 * Source: pixijs/pixijs.com, docs/examples/particle-container_basic.js (commit 889a0e0), the example the PixiJS
 * site shows; the PixiJS project is MIT-licensed (the pixijs.com repository carries no licence file of its
 * own). What is ported is its logic, rewritten: `originalScene` keeps its update loop line for line; the
 * simulation is in maggots/maggots.worker.ts. Changes, for a benchmark: 50k maggots instead of 10k, an 800×600
 * canvas instead of `resizeTo: window`, and the texture (https://pixijs.com/assets/maggot_tiny.png, not
 * reachable from here) drawn in place as a small 8×5 px ellipse.
 *
 * | design                | where the motion is made             | drawn with                                      |
 * |-----------------------|--------------------------------------|-------------------------------------------------|
 * | `original`            | the main thread, once per frame      | as published: a Container of 50k Sprites        |
 * | `original-particles`  | the main thread, the same loop       | a ParticleContainer of Particles (what the port |
 * |                       |                                      | draws with: the same rendering cost)            |
 * | `port`                | a steadyframe worker, 30 ticks/s     | attachToTicker + bindParticles into a           |
 * |                       |                                      | ParticleContainer, default options              |
 *
 * **Holds the display rate**, as it can be measured here: headless Chromium's requestAnimationFrame is not
 * locked to a display; it runs when the last frame is done, at most 60 a second, and software GL (SwiftShader)
 * makes 50k sprites slow whoever moves them. So the display rate is the rate of animation frames the browser
 * offers the page, and a scene holds it when it draws on (almost) every one of them: `drawn / rAF` ≥ 0.95 (the
 * pacer does not thin the frames out), while the browser offers the port at least 0.9× the animation frames it
 * offers the plain PixiJS scene that renders the same way (`original-particles`): the port's frames cost no
 * more. Per 1 s window: rAF callbacks and renders (Application.render calls, counted where they land), the page
 * main thread's CPU per drawn frame (/proc), every Chromium thread's CPU per drawn frame, and for the port the
 * frames drawn late (`frame.late`: past the newest state) or overtaken, the pacer's interval and skipped refreshes.
 */
import { Application, Container, Graphics, Particle, ParticleContainer, Rectangle, Sprite, UPDATE_PRIORITY, type Texture } from 'pixi.js';
import { createRuntime } from 'steadyframe';
import { attachToTicker, bindParticles } from '@steadyframe/pixi';
import { maggotSchema, type MaggotSetup } from '../maggots/schema.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, sleep } from '../page.ts';

export type PortDesign = 'original' | 'original-particles' | 'port';

export const PORT_COUNT = 50_000;
const WIDTH = 800;
const HEIGHT = 600;

export interface PortWindow {
  /** rAF callbacks (ticker updates) per second: the rate the browser offers. */
  readonly rafPerSecond: number;
  /** Renders per rAF callback (1: a frame drawn on every one). */
  readonly drawnPerRaf: number;
  /** /proc CPU ms of the page's main thread per drawn frame. */
  readonly mainCpuPerFrame: number;
  /** /proc CPU ms of every Chromium thread (software GL included) per drawn frame. */
  readonly totalCpuPerFrame: number;
}

export interface PortRow {
  readonly design: PortDesign;
  readonly count: number;
  readonly windows: readonly PortWindow[];
  readonly summary: Record<keyof PortWindow, Spread>;
  /** Canvas pixels not background after one render, of WIDTH × HEIGHT (something was drawn). */
  readonly litPixels: number;
  /** Maggots whose drawn position changed between two drawn frames 0.5 s apart, of `count`. */
  readonly moved: number;
  /** The port only (null for the others): over the measured windows. */
  readonly port: {
    readonly frames: number;
    readonly late: number;
    readonly overtaken: number;
    readonly skipped: number;
    /** The binding's updates, and the renderer's renders: equal when every frame the pacer presented was drawn and nothing else. */
    readonly updates: number;
    readonly renders: number;
    readonly interval: number;
    readonly grows: number;
    readonly shrinks: number;
  } | null;
}

interface Scene {
  readonly app: Application;
  /** x and y of every maggot as drawn now, interleaved (a copy). */
  positions(): Float32Array;
  portCounters?(): Promise<NonNullable<PortRow['port']>>;
  /** Counts the port's frames from here on (after the warm-up). */
  resetCounters?(): Promise<void>;
  dispose(): void;
}

async function application(): Promise<Application> {
  const app = new Application();
  await app.init({ width: WIDTH, height: HEIGHT, background: '#1099bb', preference: 'webgl', antialias: false });
  document.body.append(app.canvas);
  return app;
}

/** The stand-in for maggot_tiny.png: a small ellipse, drawn once into a texture. */
function maggotTexture(app: Application): Texture {
  const g = new Graphics().ellipse(4, 2.5, 4, 2.5).fill(0xffffff);
  const texture = app.renderer.generateTexture(g);
  g.destroy();
  return texture;
}

/** The example's per-maggot state, as its code keeps it on the sprite. */
interface Dude {
  x: number;
  y: number;
  rotation: number;
  direction: number;
  turningSpeed: number;
  speed: number;
  offset: number;
}

/** The example as published (Sprites in a Container), or the same on a ParticleContainer. */
async function originalScene(count: number, particles: boolean): Promise<Scene> {
  const app = await application();
  const texture = maggotTexture(app);
  const maggots: Dude[] = [];
  let container: Container | ParticleContainer;
  if (particles) {
    const pc = new ParticleContainer({ texture, dynamicProperties: { position: true, rotation: true, vertex: true } });
    container = pc;
    for (let i = 0; i < count; i++) {
      const s = 0.8 + Math.random() * 0.3;
      const p = new Particle({ texture, anchorX: 0.5, anchorY: 0.5, scaleX: s, scaleY: s, x: Math.random() * WIDTH, y: Math.random() * HEIGHT });
      p.tint = Math.random() * 0x808080;
      const dude = Object.assign(p, { direction: Math.random() * Math.PI * 2, turningSpeed: Math.random() - 0.8, speed: (2 + Math.random() * 2) * 0.2, offset: Math.random() * 100 });
      maggots.push(dude);
      pc.addParticle(p);
    }
  } else {
    container = new Container();
    for (let i = 0; i < count; i++) {
      const sprite = new Sprite(texture);
      sprite.anchor.set(0.5);
      sprite.scale.set(0.8 + Math.random() * 0.3);
      sprite.x = Math.random() * WIDTH;
      sprite.y = Math.random() * HEIGHT;
      sprite.tint = Math.random() * 0x808080;
      const dude = Object.assign(sprite, { direction: Math.random() * Math.PI * 2, turningSpeed: Math.random() - 0.8, speed: (2 + Math.random() * 2) * 0.2, offset: Math.random() * 100 });
      maggots.push(dude);
      container.addChild(sprite);
    }
  }
  // the two ways of drawing differ only in how a maggot is made and where its y scale is kept
  const setY = particles ? (d: Dude, y: number) => ((d as unknown as Particle).scaleY = y) : (d: Dude, y: number) => ((d as unknown as Sprite).scale.y = y);
  const getY = particles ? (d: Dude) => (d as unknown as Particle).scaleY : (d: Dude) => (d as unknown as Sprite).scale.y;
  app.stage.addChild(container);
  const pad = 100;
  const bounds = new Rectangle(-pad, -pad, WIDTH + pad * 2, HEIGHT + pad * 2);
  let tick = 0;
  // the example's ticker listener, line for line
  const update = () => {
    for (let i = 0; i < maggots.length; i++) {
      const dude = maggots[i]!;
      setY(dude, 0.95 + Math.sin(tick + dude.offset) * 0.05);
      const scaleY = getY(dude);
      dude.direction += dude.turningSpeed * 0.01;
      dude.x += Math.sin(dude.direction) * (dude.speed * scaleY);
      dude.y += Math.cos(dude.direction) * (dude.speed * scaleY);
      dude.rotation = -dude.direction + Math.PI;
      if (dude.x < bounds.x) dude.x += bounds.width;
      else if (dude.x > bounds.x + bounds.width) dude.x -= bounds.width;
      if (dude.y < bounds.y) dude.y += bounds.height;
      else if (dude.y > bounds.y + bounds.height) dude.y -= bounds.height;
    }
    tick += 0.1;
  };
  app.ticker.add(update);
  return {
    app,
    positions: () => Float32Array.from(maggots.flatMap((d) => [d.x, d.y])),
    dispose() {
      app.ticker.remove(update);
      app.destroy(true, { children: true });
      texture.destroy(true);
    },
  };
}

/** The port, as the READMEs show it: a worker, createRuntime with set-up data, bindParticles, attachToTicker. */
async function portScene(count: number): Promise<Scene> {
  const app = await application();
  const texture = maggotTexture(app);
  const runtime = await createRuntime<typeof maggotSchema, Record<never, never>, MaggotSetup>({
    worker: new Worker(new URL('../maggots/maggots.worker.ts', import.meta.url), { type: 'module', name: 'maggots' }),
    schema: maggotSchema,
    capacity: count,
    setup: { count, width: WIDTH, height: HEIGHT },
  });
  // scale is simulated (the wobble), so `vertex` is dynamic; the tint is the page's, set once per particle
  const container = new ParticleContainer({ texture, dynamicProperties: { position: true, rotation: true, vertex: true } });
  app.stage.addChild(container);
  const maggots = bindParticles(runtime, container, { position: 'position', angle: 'angle', scale: 'scale' }, () => {
    const p = new Particle({ texture, anchorX: 0.5, anchorY: 0.5 });
    p.tint = Math.random() * 0x808080;
    return p;
  });
  // renders counted where they land (the renderer), not by the loop: a render the loop did not ask for shows
  let rendered = 0;
  const render = app.renderer.render;
  app.renderer.render = function (this: unknown, ...args: Parameters<typeof render>) {
    rendered++;
    return render.apply(this, args);
  } as typeof render;
  let frames = 0;
  let late = 0;
  let overtaken = 0;
  let updates = 0;
  const loop = attachToTicker(app, runtime, (frame) => {
    frames++;
    if (frame.late) late++;
    if (frame.overtaken) overtaken++;
    maggots.update(frame);
    updates++;
  });
  await runtime.start();
  let base = { frames: 0, late: 0, overtaken: 0, skipped: 0, updates: 0, renders: 0, grows: 0, shrinks: 0 };
  const counters = async () => {
    const pacing = (await runtime.stats()).pacing;
    return { frames, late, overtaken, skipped: loop.skipped, updates, renders: rendered, interval: pacing.interval, grows: pacing.grows, shrinks: pacing.shrinks };
  };
  return {
    app,
    positions: () => Float32Array.from(container.particleChildren.flatMap((p) => [p.x, p.y])),
    async portCounters() {
      const now = await counters();
      return {
        frames: now.frames - base.frames,
        late: now.late - base.late,
        overtaken: now.overtaken - base.overtaken,
        skipped: now.skipped - base.skipped,
        updates: now.updates - base.updates,
        renders: now.renders - base.renders,
        interval: now.interval,
        grows: now.grows - base.grows,
        shrinks: now.shrinks - base.shrinks,
      };
    },
    async resetCounters() {
      base = await counters();
    },
    dispose() {
      loop.detach();
      app.destroy(true, { children: true });
      texture.destroy(true);
      runtime.dispose();
    },
  };
}

/** Non-background pixels of the canvas, read right after a render (the drawing buffer is still there). */
function litPixels(app: Application): number {
  const gl = (app.renderer as unknown as { gl: WebGL2RenderingContext }).gl;
  const px = new Uint8Array(WIDTH * HEIGHT * 4);
  gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, px);
  let lit = 0;
  // the background is #1099bb; a maggot is white tinted darker
  for (let i = 0; i < px.length; i += 4) if (px[i] !== 0x10 || px[i + 1] !== 0x99 || px[i + 2] !== 0xbb) lit++;
  return lit;
}

/** Resolves after the next render of `app`, with what `read` returned right after it. */
function afterRender<T>(app: Application, read: () => T): Promise<T> {
  return new Promise((resolve) => {
    const renderer = app.renderer;
    const render = renderer.render;
    renderer.render = function (this: typeof renderer, ...args: Parameters<typeof render>) {
      const result = render.apply(this, args);
      renderer.render = render;
      resolve(read());
      return result;
    } as typeof render;
  });
}

async function measure(design: PortDesign, count: number, windows: number, windowMs: number): Promise<PortRow> {
  const scene = design === 'port' ? await portScene(count) : await originalScene(count, design === 'original-particles');
  const { app } = scene;
  let rafs = 0;
  let renders = 0;
  const tickerTick = () => {
    rafs++;
  };
  app.ticker.add(tickerTick, undefined, UPDATE_PRIORITY.INTERACTION + 1);
  const render = app.renderer.render;
  app.renderer.render = function (this: unknown, ...args: Parameters<typeof render>) {
    renders++;
    return render.apply(this, args);
  } as typeof render;
  await sleep(1500); // warm-up: the port's first update makes every particle; the JIT settles
  const lit = await afterRender(app, () => litPixels(app));
  const before = await afterRender(app, () => scene.positions());
  await sleep(500);
  const after = await afterRender(app, () => scene.positions());
  let moved = 0;
  // both coordinates: a maggot heading straight up or down for those frames keeps its x to float32's precision
  for (let i = 0; i + 1 < Math.min(before.length, after.length); i += 2) if (before[i] !== after[i] || before[i + 1] !== after[i + 1]) moved++;
  await scene.resetCounters?.();
  const results: PortWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const meter = cpuMeter();
    await meter.start();
    rafs = 0;
    renders = 0;
    await sleep(windowMs);
    const cpu = await meter.stop();
    results.push({
      rafPerSecond: (rafs * 1000) / cpu.wallMs,
      drawnPerRaf: renders / Math.max(1, rafs),
      mainCpuPerFrame: cpu.main / renders,
      totalCpuPerFrame: cpu.total / renders,
    });
  }
  const port = (await scene.portCounters?.()) ?? null;
  app.ticker.remove(tickerTick);
  app.renderer.render = render;
  scene.dispose();
  const keys = Object.keys(results[0]!) as (keyof PortWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof PortWindow, Spread>;
  return { design, count, windows: results, summary, litPixels: lit, moved, port };
}

export async function pixiPort(quick: boolean, count = PORT_COUNT): Promise<{ count: number; rows: PortRow[] }> {
  const windows = quick ? 2 : 5;
  const rows: PortRow[] = [];
  // original-particles twice, around the port: the machine drifts over a run
  for (const design of ['original', 'original-particles', 'port', 'original-particles', 'port'] as const) {
    if (quick && rows.some((r) => r.design === design)) continue;
    await collectGarbage();
    const row = await measure(design, count, windows, 1000);
    const s = row.summary;
    log(
      `pixi-port ${design} ${count}: ${s.rafPerSecond.median.toFixed(1)} rAF/s, drawn/rAF ${s.drawnPerRaf.median.toFixed(3)}, ` +
        `main CPU ${s.mainCpuPerFrame.median.toFixed(2)} ms/frame, all CPU ${s.totalCpuPerFrame.median.toFixed(2)} ms/frame, lit ${row.litPixels}, moved ${row.moved}` +
        (row.port === null ? '' : `, port ${JSON.stringify(row.port)}`),
    );
    rows.push(row);
  }
  return { count, rows };
}
