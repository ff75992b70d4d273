/**
 * Every code sample on the site type-checks: each ```ts or ```tsx block of a hand-written page (site/, not the
 * generated api/, internals/, benchmarks/) begins with a `// name.ts` line, and each page's files are written into
 * a scratch folder of their own at the workspace root (so `steadyframe`, the bindings and their peers resolve as
 * in a user's app) and type-checked with tsc under the vanilla-ts template's strict and unused-code flags
 * (scripts/readme-examples.mjs). The pages the packed tarballs' apps are built from
 * (packages/runtime/test/e2e/packed.e2e.test.ts) must keep their files.
 */
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { siteExamples, sitePage, sitePages, typeCheckExamples, unnamedSamples } from '../../scripts/readme-examples.mjs';

const examples = siteExamples as () => Map<string, Map<string, string>>;

it('finds each page with examples, and the files the e2e apps are built from', () => {
  const found = examples();
  expect([...found.keys()]).toEqual(
    expect.arrayContaining(['start', 'guides/three', 'guides/render-worker', 'guides/pixi', 'guides/rapier', 'guides/node', 'guides/multiplayer', 'guides/record-and-replay', 'guides/events', 'guides/entity-tables', 'guides/private-fields']),
  );
  expect([...found.get('start')!.keys()]).toEqual(['vite.config.ts', 'schema.ts', 'sim.worker.ts', 'main.ts']);
  expect([...found.get('guides/three')!.keys()]).toEqual(['ships.worker.ts', 'main.ts']);
  expect([...found.get('guides/render-worker')!.keys()]).toEqual(['scene.ts', 'render.worker.ts', 'main.ts']);
  expect([...found.get('guides/multiplayer')!.keys()]).toEqual(['game.schema.ts', 'server.ts', 'client.worker.ts', 'main.ts', 'game.simulation.ts', 'predicting.worker.ts', 'own-disc.ts', 'shooter.simulation.ts', 'shooter.worker.ts', 'shooter.server.ts']);
});

it('has no TypeScript sample that is not type-checked', () => {
  const unnamed = (sitePages as () => string[])().flatMap((page) => (unnamedSamples as (text: string) => string[])(sitePage(page) as string).map((first) => `site/${page}.md: a block beginning ${JSON.stringify(first)}`));
  expect(unnamed).toEqual([]);
  // and the check sees one
  expect((unnamedSamples as (text: string) => string[])("```ts\nconst runtime = await createRuntime({ worker, schema });\n```\n```ts\n// ok.ts\n```")).toEqual(['const runtime = await createRuntime({ worker, schema });']);
});

it('type-checks every page', () => {
  const errors = (typeCheckExamples as (examples: Map<string, Map<string, string>>, scratch: string) => string[])(examples(), '.docs-check');
  if (errors.length > 0) expect.fail(`the site's examples do not compile:\n${errors.join('\n')}`);
}, 120_000); // tsc over every page's files: seconds on a loaded 2-core machine
