/**
 * This package's README examples compile: every ```ts or ```tsx block that begins with a `// name.ts(x)` line is
 * written, section by section, into a scratch folder at the workspace root and type-checked as a React app
 * compiles it (Vite's react-ts template: `jsx: react-jsx`, its unused-code flags).
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { buildExamples, readmeExamples, typeCheckExamples, workerRuntimeIn } from '../../../../scripts/readme-examples.mjs';

const examples = (readmeExamples as (text: string) => Map<string, Map<string, string>>)(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));

it('finds the examples', () => {
  expect([...(examples.get('Use it')?.keys() ?? [])]).toEqual(['vite.config.ts', 'game.schema.ts', 'game.worker.ts', 'App.tsx']);
  expect([...(examples.get('On WebGPURenderer')?.keys() ?? [])]).toEqual(['Ships.tsx']);
  expect([...(examples.get('Tables')?.keys() ?? [])]).toEqual(['fleet.schema.ts', 'fleet.worker.ts', 'Fleet.tsx']);
});

it('type-checks every example', () => {
  const check = typeCheckExamples as (examples: Map<string, Map<string, string>>, scratch: string, options: object) => string[];
  const errors = check(examples, '.readme-check-r3f', { jsx: 'react-jsx' });
  if (errors.length > 0) expect.fail(`the README's examples do not compile:\n${errors.join('\n')}`);
}, 60_000); // tsc over the examples: seconds on a loaded 2-core machine

it('builds every example with Vite, and no page bundle holds the worker runtime (the page imports what it shares with the worker from a module of their own)', async () => {
  const built = await (buildExamples as (examples: Map<string, Map<string, string>>, scratch: string) => Promise<Array<{ section: string }>>)(examples, '.readme-build-r3f');
  expect(built.map((b) => b.section)).toEqual(['Use it', 'Tables', 'Events and game state']);
  const found = (workerRuntimeIn as (built: unknown) => { pages: string[]; workers: string[] })(built);
  expect(found.pages).toEqual([]);
  expect(found.workers).toHaveLength(2); // the control: each worker bundle holds it
}, 120_000); // Vite builds each section: seconds on a loaded 2-core machine
