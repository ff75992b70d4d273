// A README's or a docs page's examples: every ```ts or ```tsx block that begins with a `// name.ts` (or `.tsx`)
// line, grouped by `## ` section (a README) or by page (the site, `siteExamples`); a type-check of them as a
// user's app would compile them; and a Vite build of each section, read for the worker runtime on the page. Used by
// the tests that type-check and build them (each README's test/node/readme.test.ts, the site's examples test) and
// that build them from the packed tarballs. A name may carry a note in brackets (`// server.ts (Node)`): the file
// is still `server.ts`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(ROOT, 'README.md');
const SITE = join(ROOT, 'site');
/** The site's folders that hold no hand-written page: generated (api, internals, benchmarks, guides/parts) or not pages. */
const GENERATED = new Set(['api', 'internals', 'benchmarks', 'parts', 'public', 'node_modules', 'test', 'scripts', '.vitepress']);
/** A sample's first line: its file name, and an optional note in brackets. */
const NAME = /^\/\/ ([\w.-]+\.tsx?)(?: \([^)]*\))?\s*$/;

/**
 * The site's hand-written pages (site/**\/*.md but the generated ones), as paths relative to site/ without `.md`
 * ('start', 'guides/three'), in a stable order.
 * @returns {string[]}
 */
export function sitePages(dir = SITE) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !GENERATED.has(entry.name)) out.push(...sitePages(join(dir, entry.name)));
    if (entry.isFile() && entry.name.endsWith('.md')) out.push(relative(SITE, join(dir, entry.name)).slice(0, -3));
  }
  return out.sort();
}

/** A site page's markdown source. */
export function sitePage(page) {
  return readFileSync(join(SITE, `${page}.md`), 'utf8');
}

/**
 * Every page's examples, one group per page: page ('start', 'guides/three') -> file name -> source.
 * @returns {Map<string, Map<string, string>>}
 */
export function siteExamples() {
  const out = new Map();
  for (const page of sitePages()) {
    const files = new Map();
    for (const section of readmeExamples(sitePage(page)).values()) for (const [name, source] of section) files.set(name, source);
    if (files.size > 0) out.set(page, files);
  }
  return out;
}

/**
 * The ```ts / ```tsx blocks of a markdown text that are not examples (no `// name.ts` first line): none may stand
 * on the site, so that every sample there is type-checked. Returns each one's first line.
 * @param {string} text
 * @returns {string[]}
 */
export function unnamedSamples(text) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = lines[i].trim();
    if (!/^```(ts|tsx|typescript|js|jsx|javascript)\b/.test(fence)) continue;
    const first = lines[i + 1] ?? '';
    if (!NAME.test(first) && !/^```(js|jsx|javascript)/.test(fence)) out.push(first);
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++);
  }
  return out;
}

/** @returns {Map<string, Map<string, string>>} section heading -> file name -> source */
export function readmeExamples(text = readFileSync(README, 'utf8')) {
  const out = new Map();
  let section = 'top';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (line.trim() !== '```ts' && line.trim() !== '```tsx') continue;
    const body = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) body.push(lines[i]);
    const name = NAME.exec(body[0] ?? '')?.[1];
    if (name === undefined) continue;
    if (!out.has(section)) out.set(section, new Map());
    out.get(section).set(name, body.join('\n'));
  }
  return out;
}

/** tsc's unused-code diagnostics (noUnusedLocals, noUnusedParameters). */
const UNUSED = /error TS(6133|6138|6192|6196|6198|6199|6205):/;

/**
 * Type-checks the examples (`readmeExamples`' map), each section in a folder of its own, in a scratch folder at
 * the workspace root (so `steadyframe`, the adapters and their peers resolve as in a user's app), under a strict,
 * typical app configuration with the vanilla-ts template's unused-code flags, plus `compilerOptions`. Returns
 * tsc's errors, none when they compile. An unused local in a workspace source is not the examples' error: a
 * user's app reads the packages' built .d.ts (skipLibCheck), never their sources.
 * @param {Map<string, Map<string, string>>} examples
 * @param {string} scratchName
 * @param {Record<string, unknown>} [compilerOptions]
 * @returns {string[]}
 */
export function typeCheckExamples(examples, scratchName, compilerOptions = {}) {
  const scratch = join(ROOT, scratchName);
  rmSync(scratch, { recursive: true, force: true });
  const files = [];
  let n = 0;
  for (const section of examples.values()) {
    const dir = join(scratch, `example-${n++}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, source] of section) {
      writeFileSync(join(dir, name), source);
      files.push(join(dir, name));
    }
  }
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      lib: ['ES2024', 'DOM', 'DOM.Iterable', 'WebWorker'],
      strict: true,
      // the vanilla-ts template's linting flags: its `npm run build` (tsc) fails on unused code
      noUnusedLocals: true,
      noUnusedParameters: true,
      noFallthroughCasesInSwitch: true,
      verbatimModuleSyntax: true,
      noEmit: true,
      skipLibCheck: true,
      // the workspace packages are source-first (.ts imports); a user's app would see their built .d.ts
      allowImportingTsExtensions: true,
      types: [],
      ...compilerOptions,
    },
    files,
  };
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(config));
  try {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(scratch, 'tsconfig.json')], { stdio: 'pipe' });
    return [];
  } catch (error) {
    const output = error.stdout?.toString() ?? String(error);
    const errors = output.split('\n').filter((line) => /error TS/.test(line) && !(UNUSED.test(line) && !line.includes(`${scratchName}/`)));
    return errors.length > 0 ? [output] : [];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A string of steadyframe/worker's `exposeSimulation` (its refusal to serve on a window) that survives
 * minification: a bundle that holds it holds the worker runtime.
 */
export const WORKER_RUNTIME_MARK = 'refuses to serve on a window';

/** Examples that run in Node (a server, a headless runtime), not on a page. */
const NODE_ONLY = /from '(steadyframe\/node|node:[\w/]+|ws)'/;

/**
 * Builds each section of the examples (`readmeExamples`' map) with Vite as a user's app builds them, in a folder
 * of its own in a scratch folder at the workspace root: every page module of the section (neither a worker nor a
 * render worker, nor `vite.config.ts`, nor one for Node, nor one whose worker the section leaves out) an entry, its workers (`new Worker(new URL(...))`)
 * bundled by Vite's worker plugin. Returns, per section, the page's JavaScript (the entry chunks and theirs) and
 * each worker bundle's, minified as `vite build` ships them.
 * @param {Map<string, Map<string, string>>} examples
 * @param {string} scratchName
 * @returns {Promise<Array<{ section: string, entries: string[], page: Map<string, string>, workers: Map<string, string> }>>}
 */
export async function buildExamples(examples, scratchName) {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  const scratch = join(ROOT, scratchName);
  rmSync(scratch, { recursive: true, force: true });
  const results = [];
  try {
    let n = 0;
    for (const [section, files] of examples) {
      const dir = join(scratch, `example-${n++}`);
      mkdirSync(dir, { recursive: true });
      for (const [name, source] of files) writeFileSync(join(dir, name), source);
      // a page module whose worker the section leaves out (shown in an earlier section) is not built here
      const complete = (source) => [...source.matchAll(/new URL\('\.\/([\w.-]+)'/g)].every((m) => files.has(m[1]));
      const entries = [...files]
        .filter(([name, source]) => name !== 'vite.config.ts' && !/\.(worker|render)\.tsx?$/.test(name) && !NODE_ONLY.test(source) && complete(source))
        .map(([name]) => name);
      if (entries.length === 0) continue;
      const output = await build({
        root: dir,
        configFile: false,
        logLevel: 'silent',
        plugins: [...files.keys()].some((name) => name.endsWith('.tsx')) ? [react()] : [],
        worker: { format: 'es' },
        build: { write: false, target: 'esnext', rollupOptions: { input: Object.fromEntries(entries.map((name) => [name, join(dir, name)])) } },
      });
      const page = new Map();
      const workers = new Map();
      for (const item of (Array.isArray(output) ? output : [output]).flatMap((o) => o.output)) {
        if (item.type === 'chunk') page.set(item.fileName, item.code);
        // Vite's worker plugin emits each worker's bundle as an asset of the page's build
        else if (item.fileName.endsWith('.js')) workers.set(item.fileName, String(item.source));
      }
      results.push({ section, entries, page, workers });
    }
    return results;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * What `buildExamples` built, read for the worker runtime: the page chunks that hold it (none, for a page that
 * imports only what it shares with its worker from a module of their own) and the worker bundles that do (the
 * check's control: the mark is found where it is).
 * @param {Awaited<ReturnType<typeof buildExamples>>} built
 */
export function workerRuntimeIn(built) {
  const pages = [];
  const workers = [];
  for (const { section, page, workers: bundles } of built) {
    for (const [file, code] of page) if (code.includes(WORKER_RUNTIME_MARK)) pages.push(`${section}: ${file}`);
    for (const [file, code] of bundles) if (code.includes(WORKER_RUNTIME_MARK)) workers.push(`${section}: ${file}`);
  }
  return { pages, workers };
}
