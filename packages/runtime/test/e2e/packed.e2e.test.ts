/**
 * The packages as a user gets them: `pnpm pack` builds each tarball (prepack: tsc to dist/, publishConfig's
 * exports map), fresh apps OUTSIDE the workspace install them with npm, Vite builds each app and serves it with
 * the isolation headers, and headless Chromium runs it: the worker entry resolves, the page is isolated, frames
 * are drawn and move. The second app is the README's three.js example, verbatim (then the PixiJS and Rapier ones).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helpers shared with the scripts; no type declarations.
import { pnpm } from '../../../../scripts/bootstrap.mjs';
// @ts-expect-error: as above.
import { readmeExamples } from '../../../../scripts/readme-examples.mjs';
// @ts-expect-error: as above.
import { launchChromium, screenshotsOfMotion, watchErrors } from '../../../../scripts/e2e-support.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const threeDir = join(packageDir, '..', 'three');
const pixiDir = join(packageDir, '..', 'pixi');
const work = mkdtempSync(join(tmpdir(), 'steadyframe-packed-'));
const pixiApp = join(work, 'pixi-app');
const app = join(work, 'app');
const threeApp = join(work, 'three-app');
const servers: PreviewServer[] = [];
let browser: Browser | undefined;
const urls: string[] = [];
let rapierUrl = '';
const VITE_CONFIG = `const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
export default { server: { headers }, preview: { headers }, worker: { format: 'es' }, build: { target: 'es2022' } };`;

/** Packs a workspace package into `packs` and returns the tarball's path. */
function pack(dir: string, packs: string): string {
  const [command, ...prefix] = pnpm() as string[];
  const before = new Set(readdirSync(packs));
  execFileSync(command!, [...prefix, 'pack', '--pack-destination', packs], { cwd: dir, stdio: 'pipe' });
  return join(packs, readdirSync(packs).find((name) => !before.has(name) && name.endsWith('.tgz'))!);
}

/** Writes an app, installs `packages` into it with npm, builds it with Vite, serves it; returns its URL. */
async function makeApp(dir: string, sources: Record<string, string>, packages: string[]): Promise<string> {
  mkdirSync(join(dir, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'vite.config.js'), VITE_CONFIG);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], { cwd: dir, stdio: 'pipe' });
  const configFile = join(dir, 'vite.config.js');
  await build({ root: dir, configFile, logLevel: 'error', build: { outDir: join(dir, 'dist') } });
  const server = await preview({ root: dir, configFile, logLevel: 'error', build: { outDir: join(dir, 'dist') }, preview: { port: 0, host: '127.0.0.1' } });
  servers.push(server);
  return server.resolvedUrls!.local[0]!;
}

const files: Record<string, string> = {
  'index.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><canvas id="c" width="200" height="100"></canvas><script type="module" src="/src/main.ts"></script></body></html>`,
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
  // the browser first: no point packing and building without one
  browser = await launchChromium();
  const packs = join(work, 'packs');
  mkdirSync(packs);
  const runtime = pack(packageDir, packs);
  const adapter = pack(threeDir, packs);
  const threeVersion = (JSON.parse(readFileSync(join(threeDir, 'node_modules', 'three', 'package.json'), 'utf8')) as { version: string }).version;
  urls.push(await makeApp(app, files, [runtime]));
  // the README's three.js example as it stands, with a page to hold it
  const example = (readmeExamples() as Map<string, Map<string, string>>).get('With three.js')!;
  const sources: Record<string, string> = {
    'index.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><style>body{margin:0}</style></head>
<body><script type="module" src="/src/main.ts"></script></body></html>`,
  };
  for (const [name, text] of example) sources[`src/${name}`] = text;
  urls.push(await makeApp(threeApp, sources, [runtime, adapter, `three@${threeVersion}`]));
  // and the PixiJS one
  const pixiAdapter = pack(pixiDir, packs);
  const pixiVersion = (JSON.parse(readFileSync(join(pixiDir, 'node_modules', 'pixi.js', 'package.json'), 'utf8')) as { version: string }).version;
  const pixiSources: Record<string, string> = { 'index.html': sources['index.html']! };
  for (const [name, text] of (readmeExamples() as Map<string, Map<string, string>>).get('With PixiJS')!) pixiSources[`src/${name}`] = text;
  urls.push(await makeApp(pixiApp, pixiSources, [runtime, pixiAdapter, `pixi.js@${pixiVersion}`]));
  // and the Rapier one: @steadyframe/rapier packed, Rapier from the registry at the workspace's version
  const rapierDir = join(packageDir, '..', 'rapier');
  const rapierVersion = (JSON.parse(readFileSync(join(rapierDir, 'node_modules', '@dimforge', 'rapier3d-compat', 'package.json'), 'utf8')) as { version: string }).version;
  const rapierSources: Record<string, string> = { 'index.html': sources['index.html']! };
  for (const [name, text] of (readmeExamples() as Map<string, Map<string, string>>).get('With Rapier')!) rapierSources[`src/${name}`] = text;
  rapierUrl = await makeApp(join(work, 'rapier-app'), rapierSources, [runtime, adapter, pack(rapierDir, packs), `three@${threeVersion}`, `@dimforge/rapier3d-compat@${rapierVersion}`]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
  rmSync(work, { recursive: true, force: true });
});

it('installs from the packed tarball into a fresh app, builds with Vite and runs in Chromium', async () => {
  const page = await browser!.newPage();
  const errors = watchErrors(page) as string[];
  await page.goto(urls[0]!);
  await page.waitForFunction('window.seen?.length > 30', undefined, { timeout: 30_000 });
  expect(await page.evaluate('crossOriginIsolated')).toBe(true);
  expect(await page.evaluate('window.transport')).toBe('shared');
  const seen = (await page.evaluate('window.seen')) as number[];
  expect(seen.at(-1)!).toBeGreaterThan(seen[0]!); // it moves
  expect(errors).toEqual([]);
});

/** Opens an example app; its scene must be drawn (a PNG over `minBytes`), move, and log no errors. */
async function expectMovingScene(url: string, minBytes: number): Promise<void> {
  const page = await browser!.newPage({ viewport: { width: 480, height: 320 } });
  const errors = watchErrors(page) as string[];
  await page.goto(url);
  await page.waitForSelector('canvas');
  const [first, second] = (await screenshotsOfMotion(page, minBytes)) as [Buffer, Buffer];
  expect(await page.evaluate('crossOriginIsolated')).toBe(true);
  expect(first.length).toBeGreaterThan(minBytes); // not a blank canvas
  expect(Buffer.compare(first, second)).not.toBe(0); // it moves
  expect(errors).toEqual([]);
}

it("runs the README's three.js example from the packed tarballs: a moving scene", async () => {
  await expectMovingScene(urls[1]!, 10_000); // a thousand cones
});

it("runs the README's PixiJS example from the packed tarballs: moving sprites", async () => {
  await expectMovingScene(urls[2]!, 2_500); // a hundred squares (a blank page is about 1.3 kB)
});

it("runs the README's Rapier example from the packed tarballs: boxes falling", async () => {
  await expectMovingScene(rapierUrl, 5_000); // a thousand boxes falling onto an unseen floor
});
