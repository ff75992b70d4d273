/**
 * The README's example compiles: every ```ts block that begins with a `// name.ts` line is written, section by
 * section (each `## ` heading is one example), into a scratch folder at the workspace root (so `steadyframe`
 * resolves as in a user's app), and type-checked with tsc under a strict, typical app configuration with the
 * vanilla-ts template's unused-code flags. The README is the front door: its one example is "Use it"; the guides'
 * examples live on the site's pages, type-checked by site/test/examples.test.ts (three.js's: site/guides/three.md).
 */
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { buildExamples, readmeExamples, siteExamples, typeCheckExamples, workerRuntimeIn } from '../../../../scripts/readme-examples.mjs';

/** Section heading -> { file name -> source }. */
const examples = readmeExamples as () => Map<string, Map<string, string>>;

it('finds the example', () => {
  const found = examples();
  expect([...found.keys()]).toEqual(['Use it']);
  expect([...found.get('Use it')!.keys()]).toEqual(['vite.config.ts', 'sim.worker.ts', 'main.ts']);
});

it('type-checks it', () => {
  const errors = (typeCheckExamples as (examples: Map<string, Map<string, string>>, scratch: string) => string[])(examples(), '.readme-check');
  if (errors.length > 0) expect.fail(`the README's example does not compile:\n${errors.join('\n')}`);
}, 60_000); // tsc over the example: seconds on a loaded 2-core machine

it("builds the README's example and the three.js, PixiJS and Rapier guides' with Vite, and no page bundle holds the worker runtime (the page imports what it shares with the worker from a module of their own)", async () => {
  const site = (siteExamples as () => Map<string, Map<string, string>>)();
  const guides = ['guides/three', 'guides/pixi', 'guides/rapier'];
  const sections = new Map([...examples(), ...guides.map((page) => [page, site.get(page)!] as const)]);
  const built = await (buildExamples as (examples: Map<string, Map<string, string>>, scratch: string) => Promise<Array<{ section: string }>>)(sections, '.readme-build');
  expect(built.map((b) => b.section)).toEqual(expect.arrayContaining(['Use it', ...guides]));
  const found = (workerRuntimeIn as (built: unknown) => { pages: string[]; workers: string[] })(built);
  expect(found.pages).toEqual([]);
  expect(found.workers.length).toBeGreaterThanOrEqual(4); // the control: the worker bundles hold it
}, 120_000); // Vite builds each section: seconds on a loaded 2-core machine
