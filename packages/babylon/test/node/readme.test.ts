/**
 * The README's examples compile: every ```ts block that begins with a `// name.ts` line is written, section by
 * section, into a scratch folder at the workspace root (so `steadyframe`, `@steadyframe/babylon` and
 * `@babylonjs/core` resolve as in a user's app), and type-checked with tsc under a strict, typical app
 * configuration (the examples go into Vite's vanilla-ts template: packed.e2e.test.ts builds them there).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { buildExamples, readmeExamples, typeCheckExamples, workerRuntimeIn } from '../../../../scripts/readme-examples.mjs';

const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');
const examples = () => (readmeExamples as (text: string) => Map<string, Map<string, string>>)(readme);

it('finds the example', () => {
  expect([...examples().get('A scene')!.keys()]).toEqual(['swarm.schema.ts', 'swarm.worker.ts', 'main.ts']);
});

it('type-checks the example', () => {
  const errors = (typeCheckExamples as (examples: Map<string, Map<string, string>>, scratch: string) => string[])(examples(), '.readme-check-babylon');
  if (errors.length > 0) expect.fail(`the README's example does not compile:\n${errors.join('\n')}`);
}, 60_000);

it('builds the example with Vite, and the page bundle holds no worker runtime (the page imports the schema from a module of its own)', async () => {
  const built = await (buildExamples as (examples: Map<string, Map<string, string>>, scratch: string) => Promise<Array<{ section: string }>>)(examples(), '.readme-build-babylon');
  expect(built.map((b) => b.section)).toEqual(['A scene']);
  const found = (workerRuntimeIn as (built: unknown) => { pages: string[]; workers: string[] })(built);
  expect(found.pages).toEqual([]);
  expect(found.workers.length).toBeGreaterThanOrEqual(1); // the control: the worker bundle holds it
}, 120_000); // a Vite build: seconds on a loaded 2-core machine
