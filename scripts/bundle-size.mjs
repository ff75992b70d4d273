// What steadyframe weighs in an app: the "Use it" app, now the docs' Start page (site/start.md: schema.ts, sim.worker.ts, main.ts), built with
// Vite as `npm run build` builds it (minified, the worker a module), and each side's JavaScript measured, gzip
// included. `node scripts/bundle-size.mjs` prints it; packages/runtime/test/node/bundle-size.test.ts holds it to
// the budget in packages/runtime/bundle-budget.json.
//
//   page    the entry chunk and the chunks it imports statically: what every page loads (an isolated one,
//           on the shared transport); the chunks it imports on demand (the message transport's page half)
//           are counted apart
//   worker  the same for the worker bundle; on demand there: record and replay, the message transport's half
//
// Each side's modules come with their rendered lengths (before minification), to say what the bytes are.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, siteExamples } from './readme-examples.mjs';

/** The app's own files (everything else in a bundle is steadyframe's, comlink and Vite's preload helper). */
export const USE_IT_FILES = ['schema.ts', 'sim.worker.ts', 'main.ts'];

/**
 * @typedef {{ file: string, bytes: number, gzip: number, modules: Record<string, number> }} Chunk
 * @typedef {{ loaded: Chunk[], onDemand: Chunk[], bytes: number, gzip: number }} Side
 * @returns {Promise<{ page: Side, worker: Side }>}
 */
export async function measureUseIt(scratchName = '.bundle-size') {
  const { build } = await import('vite');
  // the README's own example is the front door's shortest; the Start page's is the app the budget was set on
  const section = siteExamples().get('start');
  const dir = join(ROOT, scratchName);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    for (const name of USE_IT_FILES) writeFileSync(join(dir, name), section.get(name));
    /** @type {{ page: any[], worker: any[] }} */
    const chunks = { page: [], worker: [] };
    const collect = (side) => ({
      name: 'steadyframe-bundle-size',
      generateBundle(_options, bundle) {
        for (const item of Object.values(bundle)) if (item.type === 'chunk') chunks[side].push(item);
      },
    });
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      plugins: [collect('page')],
      worker: { format: 'es', plugins: () => [collect('worker')] },
      build: { write: false, rollupOptions: { input: { main: join(dir, 'main.ts') } } },
    });
    return { page: side(chunks.page), worker: side(chunks.worker) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The entry's chunk and those it imports statically (loaded), and the rest (loaded on demand). */
function side(chunks) {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const loaded = new Set();
  const visit = (file) => {
    if (loaded.has(file) || !byFile.has(file)) return;
    loaded.add(file);
    for (const next of byFile.get(file).imports) visit(next);
  };
  for (const c of chunks) if (c.isEntry) visit(c.fileName);
  const summary = (c) => ({
    file: c.fileName,
    bytes: Buffer.byteLength(c.code),
    gzip: gzipSync(c.code, { level: 9 }).byteLength,
    modules: Object.fromEntries(Object.entries(c.modules).map(([id, m]) => [shortName(id), m.renderedLength])),
  });
  const loadedChunks = chunks.filter((c) => loaded.has(c.fileName)).map(summary);
  return {
    loaded: loadedChunks,
    onDemand: chunks.filter((c) => !loaded.has(c.fileName)).map(summary),
    bytes: loadedChunks.reduce((sum, c) => sum + c.bytes, 0),
    gzip: loadedChunks.reduce((sum, c) => sum + c.gzip, 0),
  };
}

/** `worker/loop.ts` for the runtime's sources, `comlink` for a dependency, the file name for the app's own. */
function shortName(id) {
  const runtime = /packages\/runtime\/src\/(.*)$/.exec(id);
  if (runtime) return runtime[1];
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (dependency) return dependency[1];
  return id.split('/').at(-1).replace(/\?.*$/, '').replace(/^\0/, '');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = await measureUseIt();
  for (const [name, s] of Object.entries(sizes)) {
    console.log(`${name}: ${s.bytes} B loaded, ${s.gzip} B gzip (${s.loaded.map((c) => c.file).join(', ')})`);
    for (const c of s.onDemand) console.log(`  on demand: ${c.file} ${c.bytes} B, ${c.gzip} B gzip (${Object.keys(c.modules).join(', ')})`);
    if (process.argv.includes('--modules')) {
      const modules = s.loaded.flatMap((c) => Object.entries(c.modules)).sort((a, b) => b[1] - a[1]);
      for (const [module, length] of modules) console.log(`    ${String(length).padStart(6)} ${module}`);
    }
  }
}
