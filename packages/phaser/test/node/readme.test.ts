/**
 * This package's README examples compile: every ```ts block that begins with a `// name.ts` line is written,
 * section by section, into a scratch folder at the workspace root and type-checked as a user's app compiles it.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { buildExamples, readmeExamples, typeCheckExamples, workerRuntimeIn } from '../../../../scripts/readme-examples.mjs';

const examples = (readmeExamples as (text: string) => Map<string, Map<string, string>>)(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));

it('finds the examples', () => {
  expect([...(examples.get('A scene')?.keys() ?? [])]).toEqual(['balls.schema.ts', 'balls.worker.ts', 'main.ts']);
});

it('type-checks every example', () => {
  const check = typeCheckExamples as (examples: Map<string, Map<string, string>>, scratch: string, options: object) => string[];
  const errors = check(examples, '.readme-check-phaser', {});
  if (errors.length > 0) expect.fail(`the README's examples do not compile:\n${errors.join('\n')}`);
}, 60_000); // tsc over the examples: seconds on a loaded 2-core machine

it('builds every example with Vite, and no page bundle holds the worker runtime (the page imports what it shares with the worker from a module of their own)', async () => {
  const built = await (buildExamples as (examples: Map<string, Map<string, string>>, scratch: string) => Promise<Array<{ section: string }>>)(examples, '.readme-build-phaser');
  expect(built.map((b) => b.section)).toEqual(['A scene', 'Tables']);
  const found = (workerRuntimeIn as (built: unknown) => { pages: string[]; workers: string[] })(built);
  expect(found.pages).toEqual([]);
  expect(found.workers).toHaveLength(1); // the control: each worker bundle holds it
}, 120_000); // Vite builds each section: seconds on a loaded 2-core machine
