/**
 * Docs that cannot rot silently (issue 43): every repository path, file, exported name and section the docs (site
 * pages, README, ARCHITECTURE, the packages' and apps' READMEs, docs/*.md) and the code comments mention exists
 * (site/scripts/rot.mjs says how each is found). First the check is shown to catch the rot it was written for
 * (ARCHITECTURE naming `core/slots.ts`, comments naming `main/runtime-setup.ts`, both long gone), then it runs
 * over the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helpers of the site's scripts; no type declarations.
import { comments, findRot, missingImports, missingNames, missingPaths, missingSections, publicExports, repositoryFiles } from '../scripts/rot.mjs';
// @ts-expect-error: as above.
import { ENTRY_POINTS } from '../scripts/entry-points.mjs';

type Entry = [path: string, text: string, kind: 'doc' | 'code'];
const files = (repositoryFiles as () => string[])();

it('catches a path, a file name, an import, an API name and a section that are gone', () => {
  const entries: Entry[] = [
    ['ARCHITECTURE.md', '| `core/slots.ts`: `WRITER_SPINS` (2,000 loads) |', 'doc'],
    ['packages/runtime/src/core/simd-kernel.ts', (comments as (t: string) => string)("/** Kept for the importers of this path (main/runtime-setup.ts). */\nconst x = 'core/gone.ts';"), 'code'],
    ['site/start.md', 'the writer (see `slots.ts`)', 'doc'],
  ];
  const paths = (missingPaths as (e: Entry[], f: string[], n: Set<string>) => string[])(entries, files, new Set());
  expect(paths).toEqual(['ARCHITECTURE.md: core/slots.ts (no such file)', 'packages/runtime/src/core/simd-kernel.ts: main/runtime-setup.ts (no such file)', 'site/start.md: slots.ts (no file of that name)']);
  // the same texts with today's names pass
  const fixed: Entry[] = [['ARCHITECTURE.md', '`core/slot-writer.ts`, `packages/three/src/frame-time.ts`, `hosts/manual-clock/page.ts`', 'doc']];
  expect((missingPaths as (e: Entry[], f: string[], n: Set<string>) => string[])(fixed, files, new Set())).toEqual([]);

  const exportsOf = (publicExports as () => Map<string, Set<string>>)();
  expect([...exportsOf.get('steadyframe')!]).toContain('createRuntime');
  const imports: Entry[] = [['site/start.md', "```ts\nimport { createRuntime, createRuntimes } from 'steadyframe';\nimport { x } from 'steadyframe/nowhere';\n```", 'doc']];
  expect((missingImports as (e: Entry[], m: Map<string, Set<string>>) => string[])(imports, exportsOf)).toEqual([
    "site/start.md: createRuntimes from 'steadyframe' (not exported)",
    "site/start.md: 'steadyframe/nowhere' (no such entry point)",
  ]);

  const known = new Set(['createRuntime', 'frameTime', 'frameClock', 'outsideFrames']);
  const names: Entry[] = [['site/timing.md', '`runtime.frameTime`, `createRuntime({ worker })`, `stats().frameClock.outsideFrame`, `runtime.frameTimes`', 'doc']];
  expect((missingNames as (e: Entry[], k: Set<string>) => string[])(names, known)).toEqual([
    'site/timing.md: outsideFrame (in `stats().frameClock.outsideFrame`)',
    'site/timing.md: frameTimes (in `runtime.frameTimes`)',
  ]);

  const sections: Entry[] = [['packages/runtime/src/core/schema.ts', '/** the discrete rule (ARCHITECTURE.md, "Discrete values and events"; ARCHITECTURE.md, "The frame clock") */', 'code']];
  expect((missingSections as (e: Entry[]) => string[])(sections)).toEqual(['packages/runtime/src/core/schema.ts: ARCHITECTURE, "Discrete values and events" (no such heading)']);
}, 60_000); // the entry points' exports through TypeScript's checker: seconds, more on a loaded machine

it('reads every published entry point', () => {
  const published = new Set<string>();
  // every package of the workspace (a new one is read as soon as it is there)
  for (const dir of readdirSync(new URL('../../packages/', import.meta.url))) {
    const json = JSON.parse(readFileSync(new URL(`../../packages/${dir}/package.json`, import.meta.url), 'utf8')) as { name: string; exports: Record<string, unknown>; publishConfig?: { exports?: Record<string, unknown> } };
    const name = json.name;
    for (const key of Object.keys(json.publishConfig?.exports ?? json.exports)) if (!key.startsWith('./testing')) published.add(key === '.' ? name : `${name}/${key.slice(2)}`);
  }
  expect(new Set((ENTRY_POINTS as Array<{ specifier: string }>).map((entry) => entry.specifier))).toEqual(published);
});

it('finds no rot in the docs and the comments', () => {
  const rot = (findRot as () => Record<string, string[]>)();
  expect(rot).toEqual({ paths: [], imports: [], names: [], sections: [] });
}, 120_000); // reads every tracked source and the entry points' types: seconds, more on a loaded machine
