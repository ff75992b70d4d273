/**
 * The package as a user gets it: `pnpm pack` builds the tarball (prepack: tsc to dist/, publishConfig's
 * exports map), a fresh app OUTSIDE the workspace installs it with npm, Vite builds that app and serves it with
 * the isolation headers, and headless Chromium runs it: the worker entry resolves, the page is isolated, frames
 * are drawn and move.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helpers shared with the scripts; no type declarations.
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from '../../../../scripts/chromium.mjs';
// @ts-expect-error: as above.
import { pnpm } from '../../../../scripts/bootstrap.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'steadyframe-packed-'));
const app = join(work, 'app');
let server: PreviewServer | undefined;
let browser: Browser | undefined;

const files: Record<string, string> = {
  'index.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><canvas id="c" width="200" height="100"></canvas><script type="module" src="/src/main.ts"></script></body></html>`,
  'vite.config.js': `const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
export default { server: { headers }, preview: { headers }, worker: { format: 'es' } };`,
  'src/schema.ts': `import { schema2d } from 'steadyframe';
export const schema = schema2d;`,
  'src/sim.worker.ts': `import { exposeSimulation } from 'steadyframe/worker';
import { schema } from './schema';
exposeSimulation({
  schema,
  tickRate: 20,
  init(world) { world.count = 1; },
  step(world, tick) { world.fields.position[0] = tick.time * 50; world.fields.angle[0] = tick.time; },
});`,
  'src/main.ts': `import { createRuntime } from 'steadyframe';
import { schema } from './schema';
const ctx = (document.getElementById('c') as HTMLCanvasElement).getContext('2d')!;
const seen: number[] = [];
(window as any).seen = seen;
const runtime = await createRuntime({
  worker: new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' }),
  schema,
  capacity: 10,
  draw(frame) {
    const x = frame.fields.position[0]!;
    seen.push(x);
    ctx.fillStyle = '#000'; ctx.fillRect(0, 0, 200, 100);
    ctx.fillStyle = '#4fc3f7'; ctx.fillRect(x % 200, 40, 20, 20);
  },
});
(window as any).transport = runtime.transport;
await runtime.start();`,
};

beforeAll(async () => {
  const executablePath = findChromium() as string | null;
  if (executablePath === null) throw new Error(MISSING_CHROMIUM_MESSAGE);
  const [command, ...prefix] = pnpm() as string[];
  const packs = join(work, 'packs');
  mkdirSync(packs);
  execFileSync(command!, [...prefix, 'pack', '--pack-destination', packs], { cwd: packageDir, stdio: 'pipe' });
  const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
  mkdirSync(join(app, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(app, name), text);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, stdio: 'pipe' });
  await build({ root: app, configFile: join(app, 'vite.config.js'), logLevel: 'error', build: { outDir: join(app, 'dist') } });
  server = await preview({
    root: app,
    configFile: join(app, 'vite.config.js'),
    logLevel: 'error',
    build: { outDir: join(app, 'dist') },
    preview: { port: 0, host: '127.0.0.1' },
  });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

it('installs from the packed tarball into a fresh app, builds with Vite and runs in Chromium', async () => {
  const page = await browser!.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(server!.resolvedUrls!.local[0]!);
  await page.waitForFunction('window.seen?.length > 30', undefined, { timeout: 30_000 });
  expect(await page.evaluate('crossOriginIsolated')).toBe(true);
  expect(await page.evaluate('window.transport')).toBe('shared');
  const seen = (await page.evaluate('window.seen')) as number[];
  expect(seen.at(-1)!).toBeGreaterThan(seen[0]!); // it moves
  expect(errors).toEqual([]);
});
