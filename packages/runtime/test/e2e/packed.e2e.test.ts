/**
 * The packages as a user gets them: `pnpm pack` builds each tarball (prepack: tsc to dist/, publishConfig's
 * exports map), and the tarballs' own package.json and files are checked. Then fresh apps OUTSIDE the workspace
 * install them with npm: a minimal one built with Vite's API (served by `vite preview` with the headers, by the
 * Express recipe of site/serving.md, and, as a host that sends no headers, with coi-serviceworker), and the docs
 * pages' examples (site/: start, the three.js, render-worker, PixiJS and Rapier guides; the Phaser, Babylon.js and
 * React Three Fiber adapters' own READMEs) in
 * the layout `npm create vite@latest -- --template vanilla-ts` makes (its index.html, tsconfig.json and
 * package.json, reproduced below so that this runs offline), installed with the pages' install lines and
 * built with the template's own `npm run build` (`tsc && vite build`). Each is served with the isolation headers
 * and run in headless Chromium: the worker entry resolves, the page is isolated, frames are drawn and move, and
 * the example's canvas fills the window with no margin and no scrollbars.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helpers shared with the scripts; no type declarations.
import { pnpm } from '../../../../scripts/bootstrap.mjs';
// @ts-expect-error: as above.
import { readmeExamples, sitePage, siteExamples } from '../../../../scripts/readme-examples.mjs';
// @ts-expect-error: as above.
import { keepScreenshot, launchChromium, openEnginePage, otherEngines, screenshotsOfMotion, waitInPage, watchErrors } from '../../../../scripts/e2e-support.mjs';
import type { EnginePage } from '../shared/engine-page.ts';
import { disposeRuntimes, onManualClock } from '../node/support/manual-runtime.ts';
import { nodeFixture } from '../node/support/worker-modules.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const root = join(packageDir, '..', '..');
const threeDir = join(packageDir, '..', 'three');
const pixiDir = join(packageDir, '..', 'pixi');
const rapierDir = join(packageDir, '..', 'rapier');
const r3fDir = join(packageDir, '..', 'react-three-fiber');
const phaserDir = join(packageDir, '..', 'phaser');
const babylonDir = join(packageDir, '..', 'babylon');
const colyseusDir = join(packageDir, '..', 'colyseus');
const work = mkdtempSync(join(tmpdir(), 'steadyframe-packed-'));
const packs = join(work, 'packs');
const servers: PreviewServer[] = [];
const processes: ChildProcess[] = [];
let expressUrl = '';
let browser: Browser | undefined;
const urls: string[] = [];
/** Package name -> its tarball. */
const tarballs = new Map<string, string>();
const VITE_CONFIG = `import { crossOriginIsolation } from 'steadyframe/vite';
export default { plugins: [crossOriginIsolation()], worker: { format: 'es' }, build: { target: 'es2022' } };`;
/** A host that cannot set headers: no COOP, no COEP. */
const NO_HEADERS_CONFIG = `export default { worker: { format: 'es' }, build: { target: 'es2022' } };`;
/** The cross-origin-isolation service worker the README names for such hosts (tested with this version). */
const COI_SERVICEWORKER = '0.1.7';
/** The docs site's examples: page ('start', 'guides/three') -> file name -> source (scripts/readme-examples.mjs). */
const examples = () => siteExamples() as Map<string, Map<string, string>>;

/** The version of `name` installed in the workspace package at `dir`. */
function versionIn(dir: string, name: string): string {
  return (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * create-vite 9.3.0's template-vanilla-ts, the files the docs' examples go into (src/main.ts is replaced by
 * the example's; its counter.ts, style.css and assets are left out: the example's main.ts does not import them).
 * The devDependencies are the template's ranges ("typescript": "~7.0.2", "vite": "^8.3.4") pinned to the
 * workspace's versions, so npm can take them from its cache.
 */
const template = {
  'index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Vite + TS</title>
  </head>
  <body>
    <div id="app"></div>
    <script type="module" src="/src/main.ts"></script>
  </body>
</html>
`,
  'tsconfig.json': `{
  "compilerOptions": {
    "target": "es2023",
    "module": "esnext",
    "lib": ["ES2023", "DOM"],
    "types": ["vite/client"],
    "allowArbitraryExtensions": true,
    "skipLibCheck": true,

    /* Bundler mode */
    "moduleResolution": "bundler",
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "moduleDetection": "force",
    "noEmit": true,

    /* Linting */
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "erasableSyntaxOnly": true,
    "noFallthroughCasesInSwitch": true
  },
  "include": ["src"]
}
`,
  'package.json': JSON.stringify(
    {
      name: 'vite-typescript-starter',
      private: true,
      version: '0.0.0',
      type: 'module',
      scripts: { dev: 'vite', build: 'tsc && vite build', preview: 'vite preview' },
      devDependencies: { typescript: versionIn(root, 'typescript'), vite: versionIn(root, 'vite') },
    },
    null,
    2,
  ),
  'public/favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="46" viewBox="0 0 48 46"><path fill="#863bff" d="M0 0h48v46H0z"/></svg>',
};

/** Vite's react-ts template (create-vite's files as of Vite 8, less its logos, App.css and lint set-up). */
const reactTemplate = {
  'index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Vite + React + TS</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  'public/favicon.svg': template['public/favicon.svg'],
  'src/main.tsx': `import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './index.css'
import App from './App.tsx'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
`,
  'tsconfig.json': `{
  "files": [],
  "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }]
}
`,
  'tsconfig.app.json': `{
  "compilerOptions": {
    "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.app.tsbuildinfo",
    "target": "es2023",
    "lib": ["ES2023", "DOM", "DOM.Iterable"],
    "module": "esnext",
    "types": ["vite/client"],
    "skipLibCheck": true,
    "moduleResolution": "bundler",
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "moduleDetection": "force",
    "noEmit": true,
    "jsx": "react-jsx",
    "strict": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "erasableSyntaxOnly": true,
    "noFallthroughCasesInSwitch": true,
    "noUncheckedSideEffectImports": true
  },
  "include": ["src"]
}
`,
  'tsconfig.node.json': `{
  "compilerOptions": {
    "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.node.tsbuildinfo",
    "target": "es2023",
    "lib": ["ES2023"],
    "module": "esnext",
    "types": ["node"],
    "skipLibCheck": true,
    "moduleResolution": "bundler",
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "moduleDetection": "force",
    "noEmit": true,
    "strict": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "erasableSyntaxOnly": true,
    "noFallthroughCasesInSwitch": true,
    "noUncheckedSideEffectImports": true
  },
  "include": ["vite.config.ts"]
}
`,
};

/**
 * Vite's react-ts template with @steadyframe/react-three-fiber's README example in it, as that README says: its
 * `vite.config.ts` at the root, its other files in src/ (`App.tsx` the template's), `src/index.css` the one line
 * it gives; its install line, with the tarballs; then the template's own `npm run build` (`tsc -b && vite build`).
 */
async function makeReactTemplateApp(dir: string, install: string[]): Promise<string> {
  const readme = readFileSync(join(r3fDir, 'README.md'), 'utf8');
  const files = (readmeExamples(readme) as Map<string, Map<string, string>>).get('Use it');
  if (files === undefined) throw new Error('the React Three Fiber README has no examples under "## Use it"');
  const css = /replace `src\/index\.css` with\s+`([^`]+)`/.exec(readme)?.[1];
  if (css === undefined) throw new Error('the React Three Fiber README no longer says what src/index.css becomes');
  for (const [name, text] of Object.entries(reactTemplate)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  writeFileSync(join(dir, 'src', 'index.css'), `${css}\n`);
  for (const [name, text] of files) writeFileSync(join(dir, name === 'vite.config.ts' ? name : join('src', name)), text);
  // the template's devDependencies, and the README's second install line (@types/three)
  const dev = ['@vitejs/plugin-react', '@types/react', '@types/react-dom', '@types/three', 'typescript', 'vite'].map((name) => `${name}@${versionIn(root, name)}`);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'react-ts-starter', private: true, version: '0.0.0', type: 'module', scripts: { dev: 'vite', build: 'tsc -b && vite build', preview: 'vite preview' } }, null, 2),
  );
  await npm(dir, ['install', '--save-dev', ...dev, `@types/node@${versionIn(root, '@types/node')}`]);
  await npm(dir, ['install', ...install]);
  await npmBuild(dir, "the React Three Fiber README's example (tsc -b && vite build)");
  return serve(dir, join(dir, 'vite.config.ts'));
}

/** The Express server of site/serving.md (the ```js block that begins `// server.js`), verbatim. */
function readmeExpressServer(): string {
  const match = /```js\n(\/\/ server\.js\n[\s\S]*?)```/.exec(sitePage('serving') as string);
  if (match === null) throw new Error('site/serving.md has no ```js block beginning with // server.js');
  return match[1]!;
}

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Runs the Express server of site/serving.md over `dir`'s built dist/ (express installed with npm); returns its URL. */
async function serveWithExpress(dir: string): Promise<string> {
  await npm(dir, ['install', 'express']);
  writeFileSync(join(dir, 'server.js'), readmeExpressServer());
  const port = await freePort();
  const server = spawn('node', ['server.js'], { cwd: dir, env: { ...process.env, PORT: String(port) }, stdio: 'pipe' });
  processes.push(server);
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then((response) => response.ok, () => false)) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the Express server of site/serving.md did not answer');
}

/** Packs a workspace package into `packs` and returns the tarball's path. */
function pack(dir: string): string {
  const [command, ...prefix] = pnpm() as string[];
  const before = new Set(readdirSync(packs));
  execFileSync(command!, [...prefix, 'pack', '--pack-destination', packs], { cwd: dir, stdio: 'pipe' });
  return join(packs, readdirSync(packs).find((name) => !before.has(name) && name.endsWith('.tgz'))!);
}

const run = promisify(execFile);

/** npm in `dir`, not blocking the event loop: the template apps install and build side by side. */
async function npm(dir: string, args: string[]): Promise<void> {
  await run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
}

/** `npm run build` in `dir`; its output in the error when it fails, with `what` built. */
async function npmBuild(dir: string, what: string): Promise<void> {
  try {
    await run('npm', ['run', 'build'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`\`npm run build\` failed for ${what}:\n${stdout}${stderr}`);
  }
}

/** Runs `jobs` `width` at a time; their results in the jobs' order. */
async function inParallel<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const k = next++;
      results[k] = await jobs[k]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, lane));
  return results;
}

/** Serves a built app's dist/ with the isolation headers; returns its URL. */
async function serve(dir: string, configFile: string | false): Promise<string> {
  const server = await preview({ root: dir, configFile, logLevel: 'error', build: { outDir: join(dir, 'dist') }, preview: { port: 0, host: '127.0.0.1' } });
  servers.push(server);
  return server.resolvedUrls!.local[0]!;
}

/** Writes a minimal app, installs `packages` into it with npm, builds it with Vite's API, serves it. */
async function makeApp(dir: string, sources: Record<string, string>, packages: string[], config = VITE_CONFIG, afterInstall = () => {}): Promise<string> {
  mkdirSync(join(dir, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'vite.config.js'), config);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  await npm(dir, ['install', ...packages]);
  afterInstall();
  const configFile = join(dir, 'vite.config.js');
  await build({ root: dir, configFile, logLevel: 'error', build: { outDir: join(dir, 'dist') } });
  return serve(dir, configFile);
}

/**
 * The vanilla-ts template with a docs page's example in it: the Start page's `vite.config.ts` at the root (every example's),
 * the files of `sections` in src/ (a later section's file replaces an earlier one's: the render worker's
 * main.ts the three.js one's); the page's install lines, with the tarballs for the packages not yet
 * published; then the template's own `npm run build`. Serves the result; returns its URL.
 */
async function makeTemplateApp(dir: string, sections: string[], install: string[], installDev: string[], from = examples()): Promise<string> {
  for (const [name, text] of Object.entries(template)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'vite.config.ts'), examples().get('start')!.get('vite.config.ts')!);
  for (const section of sections) {
    const files = from.get(section);
    if (files === undefined) throw new Error(`no examples on ${section}`);
    for (const [name, text] of files) if (name !== 'vite.config.ts') writeFileSync(join(dir, 'src', name), text);
  }
  const section = sections.at(-1)!;
  await npm(dir, ['install']); // the template's own devDependencies
  await npm(dir, ['install', ...install]);
  if (installDev.length > 0) await npm(dir, ['install', '--save-dev', ...installDev]);
  await npmBuild(dir, `the "${section}" example (tsc && vite build)`);
  return serve(dir, join(dir, 'vite.config.ts'));
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
  mkdirSync(packs);
  for (const dir of [packageDir, threeDir, pixiDir, rapierDir, r3fDir, phaserDir, babylonDir, colyseusDir]) {
    const path = pack(dir);
    tarballs.set((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name, path);
  }
  const runtime = tarballs.get('steadyframe')!;
  urls.push(await makeApp(join(work, 'app'), files, [runtime]));
  expressUrl = await serveWithExpress(join(work, 'app'));
  // the same app for a host that cannot set headers: served with none, coi-serviceworker as the README says
  const coiApp = join(work, 'coi-app');
  const coiPage = files['index.html']!.replace('<head>', '<head><script src="coi-serviceworker.min.js"></script>');
  const copyServiceWorker = () => {
    mkdirSync(join(coiApp, 'public'));
    copyFileSync(join(coiApp, 'node_modules', 'coi-serviceworker', 'coi-serviceworker.min.js'), join(coiApp, 'public', 'coi-serviceworker.min.js'));
  };
  urls.push(await makeApp(coiApp, { ...files, 'index.html': coiPage }, [runtime, `coi-serviceworker@${COI_SERVICEWORKER}`], NO_HEADERS_CONFIG, copyServiceWorker));
  // the docs pages' examples as they stand (site/), each in a fresh app of its ecosystem's template, installed as
  // the page says; two at a time (installs wait on the disk, builds on the CPU: one per core, so the browser
  // projects' timing tests running beside this file are not starved)
  const three = `three@${versionIn(threeDir, 'three')}`;
  const threeTypes = `@types/three@${versionIn(threeDir, '@types/three')}`;
  const threeInstall = [runtime, tarballs.get('@steadyframe/three')!, three];
  const pixi = `pixi.js@${versionIn(pixiDir, 'pixi.js')}`;
  // the Rapier one in the three.js example's app, Rapier from the registry at the workspace's version
  const rapier = `@dimforge/rapier3d-compat@${versionIn(rapierDir, '@dimforge/rapier3d-compat')}`;
  // @steadyframe/phaser's README example, in the same template (Phaser's own templates are Vite ones too)
  const phaser = `phaser@${versionIn(phaserDir, 'phaser')}`;
  const phaserExamples = readmeExamples(readFileSync(join(phaserDir, 'README.md'), 'utf8')) as Map<string, Map<string, string>>;
  // @steadyframe/babylon's README example, in the same template: Babylon from the registry at the workspace's version
  const babylon = `@babylonjs/core@${versionIn(babylonDir, '@babylonjs/core')}`;
  const babylonExamples = readmeExamples(readFileSync(join(babylonDir, 'README.md'), 'utf8')) as Map<string, Map<string, string>>;
  // @steadyframe/react-three-fiber's README example in Vite's react-ts template, its install line with the tarballs
  const r3fPeers = ['three', '@react-three/fiber', 'react', 'react-dom'].map((name) => `${name}@${versionIn(root, name)}`);
  const apps = await inParallel(
    [
      () => makeTemplateApp(join(work, 'use-app'), ['start'], [runtime], []),
      () => makeTemplateApp(join(work, 'three-app'), ['guides/three'], threeInstall, [threeTypes]),
      // the render worker's files in the three.js example's app (its ships.worker.ts; its main.ts replaced)
      () => makeTemplateApp(join(work, 'render-worker-app'), ['guides/three', 'guides/render-worker'], threeInstall, [threeTypes]),
      () => makeTemplateApp(join(work, 'pixi-app'), ['guides/pixi'], [runtime, tarballs.get('@steadyframe/pixi')!, pixi], []),
      () => makeTemplateApp(join(work, 'rapier-app'), ['guides/rapier'], [...threeInstall, tarballs.get('@steadyframe/rapier')!, rapier], [threeTypes]),
      () => makeTemplateApp(join(work, 'phaser-app'), ['A scene'], [runtime, tarballs.get('@steadyframe/phaser')!, phaser], [], phaserExamples),
      () => makeReactTemplateApp(join(work, 'r3f-app'), [runtime, tarballs.get('@steadyframe/three')!, tarballs.get('@steadyframe/react-three-fiber')!, ...r3fPeers]),
      () => makeTemplateApp(join(work, 'babylon-app'), ['A scene'], [runtime, tarballs.get('@steadyframe/babylon')!, babylon], [], babylonExamples),
    ],
    2,
  );
  urls.push(...apps);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
  for (const child of processes) child.kill();
  rmSync(work, { recursive: true, force: true });
});

/** Every string an exports map points at (conditions nested or not). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

/** All files under `dir`, relative to it, with forward slashes. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(dir, `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

describe('the tarballs', () => {
  const license = readFileSync(join(root, 'LICENSE'), 'utf8');
  for (const name of ['steadyframe', '@steadyframe/three', '@steadyframe/pixi', '@steadyframe/rapier', '@steadyframe/react-three-fiber', '@steadyframe/phaser', '@steadyframe/babylon', '@steadyframe/colyseus']) {
    it(`${name}: a package.json npm can install, exports that resolve, LICENSE and maps inside`, () => {
      const out = join(work, 'unpacked', name.replace('/', '+'));
      mkdirSync(out, { recursive: true });
      execFileSync('tar', ['-xzf', tarballs.get(name)!, '-C', out]);
      const dir = join(out, 'package');
      const text = readFileSync(join(dir, 'package.json'), 'utf8');
      expect(text).not.toMatch(/"(catalog|workspace):/); // pnpm rewrote them; npm would not understand them
      const manifest = JSON.parse(text) as Record<string, any>;
      const files = new Set(filesUnder(dir));
      const targets = exportTargets(manifest.exports);
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) {
        // built modules, or steadyframe/vite: plain JavaScript that ships as written (Vite's config loader runs it in Node)
        expect(target).toMatch(name === 'steadyframe' ? /^\.\/(dist|vite)\// : /^\.\/dist\//);
        expect(files, `exports → ${target}`).toContain(normalize(target).replace(/^\.\//, ''));
      }
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(license);
      expect(license).toMatch(/^MIT License[\s\S]*steadyframe contributors/);
      for (const field of ['repository', 'homepage', 'bugs']) expect(manifest[field], field).toBeTruthy();
      // a source map beside every module and a declaration map beside every declaration, whose sources ship too
      const built = [...files].filter((file) => file.startsWith('dist/') && /\.(js|d\.ts)$/.test(file));
      expect(built.length).toBeGreaterThan(2);
      for (const file of built) {
        expect(files, `map of ${file}`).toContain(`${file}.map`);
        const map = JSON.parse(readFileSync(join(dir, `${file}.map`), 'utf8')) as { sources: string[] };
        for (const source of map.sources) expect(files, `${file}.map → ${source}`).toContain(normalize(join(dirname(file), source)));
      }
      // what no published export reaches does not ship (the runtime's test helpers, steadyframe/testing)
      expect([...files].filter((file) => /^(dist|src)\/testing\//.test(file))).toEqual([]);
      // README links that work on npm: absolute or in-page only
      const readme = readFileSync(join(dir, 'README.md'), 'utf8');
      for (const [, target] of readme.matchAll(/\]\(([^)]+)\)/g)) expect(target).toMatch(/^(https:\/\/|#)/);
      if (name !== 'steadyframe') {
        // the adapters share the app's one runtime: a peer with a bounded range that this version satisfies
        expect(manifest.dependencies?.steadyframe).toBeUndefined();
        expect(manifest.peerDependencies.steadyframe).toBe('^0.1.0');
        for (const range of Object.values(manifest.peerDependencies) as string[]) expect(range).toMatch(/<|\^/);
      }
    });
  }
});

it('installs the steadyframe command: npx steadyframe replay says a recording replays, and exits 0', async () => {
  const manifest = JSON.parse(readFileSync(join(work, 'app', 'node_modules', 'steadyframe', 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  expect(manifest.bin).toEqual({ steadyframe: './dist/cli/steadyframe.js' });
  // a session of the seeded fixture on a manual clock, recorded with the workspace's runtime
  const { rt, clock } = await onManualClock({ fixture: 'seeded', capacity: 16, seed: 8, setup: { count: 4 } });
  try {
    await rt.start();
    await rt.record();
    for (let f = 0; f < 60; f++) {
      rt.sendInput(0, 0.5, -0.25);
      await clock.advance(1000 / 60);
    }
    await rt.stop();
    const file = join(work, 'session.sfr');
    writeFileSync(file, await rt.stopRecording());
    const out = execFileSync('npx', ['steadyframe', 'replay', file, '--worker', await nodeFixture('seeded')], { cwd: join(work, 'app'), encoding: 'utf8' });
    expect(out).toMatch(/session\.sfr: \d+ ticks replayed in \d+ ms, every one as recorded/);
  } finally {
    disposeRuntimes();
  }
}, 120_000);

/** Runs `check` on a new page of the Chromium, and closes the page after, pass or fail. */
async function withPage(check: (page: Page) => Promise<void>, viewport?: { width: number; height: number }): Promise<void> {
  const page = await browser!.newPage(viewport === undefined ? {} : { viewport });
  try {
    await check(page);
  } finally {
    await page.close();
  }
}

it('installs from the packed tarball into a fresh app, builds with Vite and runs in Chromium', () =>
  withPage(async (page) => {
    const errors = watchErrors(page) as string[];
    await page.goto(urls[0]!);
    await page.waitForFunction('window.seen?.length > 30', undefined, { timeout: 30_000 });
    expect(await page.evaluate('crossOriginIsolated')).toBe(true);
    expect(await page.evaluate('window.transport')).toBe('shared');
    const seen = (await page.evaluate('window.seen')) as number[];
    expect(seen.at(-1)!).toBeGreaterThan(seen[0]!); // it moves
    expect(errors).toEqual([]);
  }));

it("served by the Express recipe of site/serving.md: isolated, on the shared transport", async () => {
  const response = await fetch(expressUrl);
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  await withPage(async (page) => {
    const errors = watchErrors(page) as string[];
    await page.goto(expressUrl);
    await page.waitForFunction('window.seen?.length > 30', undefined, { timeout: 30_000 });
    expect(await page.evaluate('[crossOriginIsolated, window.transport]')).toEqual([true, 'shared']);
    expect(errors).toEqual([]);
  });
});

it('on a host that sends no isolation headers, coi-serviceworker isolates the page: the shared transport', async () => {
  const url = urls[1]!;
  const response = await fetch(url);
  expect(response.headers.get('cross-origin-opener-policy')).toBeNull(); // really no headers from the server
  expect(response.headers.get('cross-origin-embedder-policy')).toBeNull();
  await withPage(async (page) => {
    const errors = watchErrors(page) as string[];
    await page.goto(url);
    // the first load registers the service worker and reloads; the second is served through it, isolated
    let state: { transport?: string; isolated: boolean; controlled: boolean; frames: number } | undefined;
    for (let i = 0; i < 300 && state?.transport !== 'shared'; i++) {
      await page.waitForTimeout(100);
      state = await page
        .evaluate('({ transport: window.transport, isolated: crossOriginIsolated, controlled: !!navigator.serviceWorker.controller, frames: window.seen?.length ?? 0 })')
        .then((value) => value as typeof state, () => undefined); // the reload can cut an evaluation short
    }
    expect(state).toMatchObject({ transport: 'shared', isolated: true, controlled: true });
    await page.waitForFunction('window.seen?.length > 30', undefined, { timeout: 30_000 });
    expect(errors).toEqual([]);
  });
});

/**
 * Opens an example app; its scene must be drawn (a PNG over `minBytes`), move, and log no errors; the canvas must
 * fill the window from its corner (`fills`) or at least fit inside it, and nothing scroll. `more` checks the page
 * further; the page is closed after, pass or fail (an example left open draws on, on the CPU, through every later test).
 */
function expectMovingScene(url: string, minBytes: number, fills = true, more?: (page: Page) => Promise<void>): Promise<void> {
  return withPage(async (page) => {
    await checkMovingScene(page, url, minBytes, fills);
    await more?.(page);
  }, { width: 480, height: 320 });
}

async function checkMovingScene(page: Page, url: string, minBytes: number, fills: boolean): Promise<void> {
  const errors = watchErrors(page) as string[];
  await page.goto(url);
  await page.waitForSelector('canvas');
  const [first, second] = (await screenshotsOfMotion(page, minBytes)) as [Buffer, Buffer];
  expect(await page.evaluate('crossOriginIsolated')).toBe(true);
  expect(first.length).toBeGreaterThan(minBytes); // not a blank canvas
  expect(Buffer.compare(first, second)).not.toBe(0); // it moves
  expect(errors).toEqual([]);
  // the canvas fills the window from its corner (not an unsized 300 x 150): no body margin, no scrollbars
  const layout = (await page.evaluate(`(() => {
    const rect = document.querySelector('canvas').getBoundingClientRect();
    const root = document.documentElement;
    return [rect.left, rect.top, rect.width - innerWidth, rect.height - innerHeight, root.scrollWidth - innerWidth, root.scrollHeight - innerHeight];
  })()`)) as number[];
  if (fills) expect(layout).toEqual([0, 0, 0, 0, 0, 0]);
  else {
    // inside the window: its left and top edges at or past 0, its right and bottom edges at or before the window's
    const [left, top, overWidth, overHeight, ...scroll] = layout as [number, number, number, number, number, number];
    expect({ left: left >= 0, top: top >= 0, right: left + overWidth <= 0, bottom: top + overHeight <= 0 }).toEqual({ left: true, top: true, right: true, bottom: true });
    expect(scroll).toEqual([0, 0]);
  }
}

it("runs the Start page's example (site/start.md) from the packed tarball: moving dashes on a 2D canvas", async () => {
  await expectMovingScene(urls[2]!, 10_000); // a thousand turning dashes
});

it("runs the three.js guide's example from the packed tarballs: a moving scene", async () => {
  await expectMovingScene(urls[3]!, 10_000); // a thousand cones
});

it("runs the render-worker guide's example from the packed tarballs: drawn in the render worker, three.js loaded once", async () => {
  // a thousand boxes
  await expectMovingScene(urls[4]!, 10_000, true, async (page) => {
    // the fallback's chunk (the scene and three.js) was never fetched: only the render worker loaded three.js
    const scripts = (await page.evaluate("performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.endsWith('.js'))")) as string[];
    const fetched = await Promise.all(scripts.map(async (url) => [url, await (await fetch(url)).text()] as const));
    const withThree = fetched.filter(([, text]) => text.includes('THREE.WebGLRenderer')).map(([url]) => url);
    expect(withThree.length, withThree.join(', ')).toBeLessThanOrEqual(1);
    for (const url of withThree) expect(url).toMatch(/render\.worker/);
  });
});

it("runs the PixiJS guide's example from the packed tarballs: moving sprites", async () => {
  await expectMovingScene(urls[5]!, 2_500); // a hundred squares (a blank page is about 1.3 kB)
});

it("runs the Rapier guide's example from the packed tarballs: boxes falling", async () => {
  await expectMovingScene(urls[6]!, 5_000); // a thousand boxes falling onto an unseen floor
});

it("runs @steadyframe/react-three-fiber's README example from the packed tarballs in Vite's react-ts template: a moving scene", async () => {
  await expectMovingScene(urls[8]!, 5_000); // a thousand boxes around a sphere
});

it("runs @steadyframe/babylon's README example from the packed tarballs: thin instances blended on the GPU, moving", async () => {
  await expectMovingScene(urls[9]!, 5_000); // five thousand lit boxes
});

it("runs @steadyframe/phaser's README example from the packed tarballs: balls bouncing in a Phaser game", async () => {
  // Phaser fits its 800 × 600 game to the window and centres it: letterboxed, not filling the window
  await expectMovingScene(urls[7]!, 5_000, false); // five hundred balls
});

/** The engines beside Chromium that are here; WebKit as it ships (no SharedArrayBuffer) and as Safari runs. */
const OTHER_ENGINES = otherEngines() as string[];

describe.each(OTHER_ENGINES)('the packed apps in %s', (engine) => {
  // WebKitGTK as it ships has no SharedArrayBuffer on an isolated page: the same apps run on messages there
  const transport = engine === 'webkit' ? 'message' : 'shared';

  async function opened(url: string, viewport = { width: 480, height: 320 }): Promise<EnginePage> {
    const page = (await openEnginePage(engine, viewport)) as EnginePage;
    await page.goto(url);
    return page;
  }

  it("the three.js guide's example: isolated, a moving scene (viewport screenshots)", async () => {
    const page = await opened(urls[3]!);
    try {
      await waitInPage(page, 'the scene', "document.querySelector('canvas') !== null");
      const [first, second] = (await screenshotsOfMotion(page, 10_000)) as [Buffer, Buffer];
      expect(first.length).toBeGreaterThan(10_000); // a thousand cones, not a blank canvas
      expect(Buffer.compare(first, second)).not.toBe(0); // it moves
      expect(await page.evaluate('crossOriginIsolated')).toBe(true);
      keepScreenshot(`three-example-${engine}`, second);
      expect(page.errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it(`on a host that sends no isolation headers, coi-serviceworker isolates the page: the ${transport} transport`, async () => {
    const page = await opened(urls[1]!);
    try {
      // the first load registers the service worker and reloads; the second is served through it, isolated. The
      // first document's runtime is cut off by that reload (its worker loading the message transport's chunk: a
      // CI run's Firefox logged "error loading dynamically imported module" as it went, a console a reload clears):
      // the console checked is the isolated document's, from the moment it is the one loaded
      await waitInPage(page, 'the isolated document', 'crossOriginIsolated && !!navigator.serviceWorker.controller');
      const beforeIsolated = page.errors.splice(0);
      await waitInPage(page, 'an isolated page moving', 'crossOriginIsolated && !!navigator.serviceWorker.controller && window.seen?.length > 30');
      expect(await page.evaluate('window.transport')).toBe(transport);
      expect(page.errors, `(the first, unisolated document's: ${JSON.stringify(beforeIsolated)})`).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
