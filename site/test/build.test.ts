/**
 * The docs site builds, in one command (`npm run docs:build`: site/scripts/build.mjs), and no link of it is
 * broken: VitePress fails the build on a dead page link, and site/scripts/check-links.mjs then checks every
 * internal link's page, file and #anchor in the built HTML. Then the pages a newcomer meets first are there: the
 * Start page, the concepts' pictures, an API page per function with its options, the internals and benchmark
 * pages, and a search index that finds "pace". The link check is first shown to catch a broken anchor and a page
 * that is not there.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper of the site's scripts; no type declarations.
import { checkLinks } from '../scripts/check-links.mjs';

const site = fileURLToPath(new URL('..', import.meta.url));
const dist = join(site, '.vitepress', 'dist');

it('catches a link to a missing anchor or page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadyframe-links-'));
  mkdirSync(join(dir, 'guides'));
  writeFileSync(join(dir, 'index.html'), '<h2 id="a">A</h2><a href="/guides/three#tables">ok</a><a href="#a">ok</a><a href="#b">no</a><a href="/gone">no</a><img src="/diagrams/x.svg">');
  writeFileSync(join(dir, 'guides', 'three.html'), '<h2 id="tables">Tables</h2><a href="../index#a">ok</a><a href="./three#nope">no</a>');
  const problems = (checkLinks as (dist: string) => string[])(dir).sort();
  rmSync(dir, { recursive: true, force: true });
  expect(problems).toEqual([
    'guides/three.html: ./three#nope (no #nope on guides/three.html)',
    'index.html: #b (no #b on index.html)',
    'index.html: /diagrams/x.svg (no such page or file)',
    'index.html: /gone (no such page or file)',
  ]);
});

it('builds with every link resolving, and has the pages', async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = execFile(process.execPath, [join(site, 'scripts', 'build.mjs')], { maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : (child.exitCode ?? 1), output: `${stdout}\n${stderr}` }),
    );
  });
  if (code !== 0) expect.fail(`npm run docs:build failed (exit ${code}):\n${output.slice(-6000)}`);
  expect(output).toContain('every internal link and anchor of the built site resolves');

  const page = (path: string) => readFileSync(join(dist, path), 'utf8');
  expect(page('start.html')).toContain('crossOriginIsolation');
  expect(page('concepts.html')).toContain('/diagrams/timeline.svg');
  // one page per function and type, with the options and their defaults from the doc comments
  const createRuntime = page('api/steadyframe/functions/createRuntime.html');
  expect(createRuntime).toContain('RuntimeOptions');
  expect(page('api/steadyframe/interfaces/RuntimeOptionsBase.html')).toMatch(/heartbeatTimeout[\s\S]*default 2000/);
  expect(page('api/steadyframe/worker/functions/exposeSimulation.html')).toContain('exposeSimulation');
  expect(page('api/@steadyframe/three/functions/createInterpolatedInstancedMesh.html')).toContain('createInterpolatedInstancedMesh');
  expect(page('internals/modules.html')).toContain('slot-writer.ts');
  expect(page('benchmarks/benchmarks.html')).toContain('steadyframe benchmarks');
  // the local search index (one chunk) knows the pacing pages
  const chunks = readdirSync(join(dist, 'assets', 'chunks')).filter((name) => name.startsWith('@localSearchIndex'));
  expect(chunks.length).toBeGreaterThan(0);
  const index = chunks.map((name) => readFileSync(join(dist, 'assets', 'chunks', name), 'utf8')).join('\n');
  expect(index).toMatch(/pace\(/);
  expect(index).toContain('Pacing after a slow frame');
}, 600_000); // TypeDoc, then VitePress over ~460 pages: about a minute on an idle 2-core machine, more under load
