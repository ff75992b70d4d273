/**
 * The README's examples compile: every ```ts block that begins with a `// name.ts` line is written, section by
 * section (each `## ` heading is one example), into a scratch folder at the workspace root (so `steadyframe`,
 * the adapters, `three` and `pixi.js` resolve as in a user's app), and type-checked with tsc under a strict,
 * typical app configuration with the vanilla-ts template's unused-code flags (the examples go into that
 * template: packed.e2e.test.ts builds them there).
 */
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { buildExamples, readmeExamples, typeCheckExamples, workerRuntimeIn } from '../../../../scripts/readme-examples.mjs';

/** Section heading -> { file name -> source }. */
const examples = readmeExamples as () => Map<string, Map<string, string>>;

it('finds the examples', () => {
  const found = examples();
  expect([...found.keys()]).toEqual(expect.arrayContaining(['Use it', 'With three.js', 'Drawing in a render worker', 'With PixiJS', 'With Rapier', 'Headless in Node']));
  expect([...found.get('Drawing in a render worker')!.keys()]).toEqual(['scene.ts', 'render.worker.ts', 'main.ts']);
  expect([...found.get('Use it')!.keys()]).toEqual(['vite.config.ts', 'schema.ts', 'sim.worker.ts', 'main.ts', 'boids.worker.ts', 'rocks.schema.ts', 'rocks.worker.ts', 'rocks.ts', 'space.schema.ts', 'space.worker.ts', 'space.ts']);
  expect([...found.get('With three.js')!.keys()]).toEqual(['ships.worker.ts', 'main.ts']);
});

it('type-checks every example', () => {
  const errors = (typeCheckExamples as (examples: Map<string, Map<string, string>>, scratch: string) => string[])(examples(), '.readme-check');
  if (errors.length > 0) expect.fail(`the README's examples do not compile:\n${errors.join('\n')}`);
}, 60_000); // tsc over every example: seconds on a loaded 2-core machine

it('builds every example with Vite, and no page bundle holds the worker runtime (the page imports what it shares with the worker from a module of their own)', async () => {
  const built = await (buildExamples as (examples: Map<string, Map<string, string>>, scratch: string) => Promise<Array<{ section: string }>>)(examples(), '.readme-build');
  expect(built.map((b) => b.section)).toEqual(expect.arrayContaining(['Use it', 'With three.js', 'With PixiJS', 'With Rapier']));
  const found = (workerRuntimeIn as (built: unknown) => { pages: string[]; workers: string[] })(built);
  expect(found.pages).toEqual([]);
  expect(found.workers.length).toBeGreaterThanOrEqual(4); // the control: the worker bundles hold it
}, 120_000); // Vite builds each section: seconds on a loaded 2-core machine
