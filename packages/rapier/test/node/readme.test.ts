/**
 * This package's README examples compile: every ```ts block that begins with a `// name.ts` line is written,
 * section by section, into a scratch folder at the workspace root and type-checked as a user's app compiles it
 * (the 3D quick start, the 2D worker and its Phaser page, and the tables' schema, worker and page).
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { buildExamples, readmeExamples, typeCheckExamples, workerRuntimeIn } from '../../../../scripts/readme-examples.mjs';

const examples = (readmeExamples as (text: string) => Map<string, Map<string, string>>)(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));

it('finds the examples', () => {
  expect([...(examples.get('top')?.keys() ?? [])]).toEqual(['physics.worker.ts']);
  expect([...(examples.get('2D: `@steadyframe/rapier/2d`')?.keys() ?? [])]).toEqual(['bodies.worker.ts', 'main.ts']);
  expect([...(examples.get('Tables: several kinds of bodies in one Rapier world')?.keys() ?? [])]).toEqual(['schema.ts', 'space.worker.ts', 'main.ts']);
});

it('type-checks every example', () => {
  const check = typeCheckExamples as (examples: Map<string, Map<string, string>>, scratch: string, options: object) => string[];
  const errors = check(examples, '.readme-check-rapier', {});
  if (errors.length > 0) expect.fail(`the README's examples do not compile:\n${errors.join('\n')}`);
}, 60_000); // tsc over the examples: seconds on a loaded 2-core machine

it('builds every example with Vite, and no page bundle holds the worker runtime (the page imports what it shares with the worker from a module of their own)', async () => {
  const built = await (buildExamples as (examples: Map<string, Map<string, string>>, scratch: string) => Promise<Array<{ section: string }>>)(examples, '.readme-build-rapier');
  expect(built.map((b) => b.section)).toEqual(['2D: `@steadyframe/rapier/2d`', 'Tables: several kinds of bodies in one Rapier world']);
  const found = (workerRuntimeIn as (built: unknown) => { pages: string[]; workers: string[] })(built);
  expect(found.pages).toEqual([]);
  expect(found.workers).toHaveLength(2); // the control: each worker bundle holds it
}, 120_000); // Vite builds each section: seconds on a loaded 2-core machine
