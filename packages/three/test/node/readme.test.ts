/**
 * The README's examples compile: every ```ts block that begins with a `// name.ts` line is written, section by
 * section (each `## ` heading is one example), into a scratch folder at the workspace root (so `steadyframe`,
 * the adapters, `three` and `pixi.js` resolve as in a user's app), and type-checked with tsc under a strict,
 * typical app configuration with the vanilla-ts template's unused-code flags (the examples go into that
 * template: packed.e2e.test.ts builds them there).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { readmeExamples } from '../../../../scripts/readme-examples.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Section heading -> { file name -> source }. */
const examples = readmeExamples as () => Map<string, Map<string, string>>;

it('finds the examples', () => {
  const found = examples();
  expect([...found.keys()]).toEqual(expect.arrayContaining(['Use it', 'With three.js', 'Drawing in a render worker', 'With PixiJS', 'With Rapier', 'Headless in Node']));
  expect([...found.get('Drawing in a render worker')!.keys()]).toEqual(['scene.ts', 'render.worker.ts', 'main.ts']);
  expect([...found.get('Use it')!.keys()]).toEqual(['vite.config.ts', 'schema.ts', 'sim.worker.ts', 'main.ts', 'boids.worker.ts']);
  expect([...found.get('With three.js')!.keys()]).toEqual(['ships.worker.ts', 'main.ts']);
});

/** tsc's unused-code diagnostics (noUnusedLocals, noUnusedParameters). */
const UNUSED = /error TS(6133|6138|6192|6196|6198|6199|6205):/;

it('type-checks every example', () => {
  // at the workspace root, whose devDependencies hold every package the examples import
  const scratch = join(packageDir, '..', '..', '.readme-check');
  rmSync(scratch, { recursive: true, force: true });
  const include: string[] = [];
  let n = 0;
  for (const files of examples().values()) {
    const dir = join(scratch, `example-${n++}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, source] of files) {
      writeFileSync(join(dir, name), source);
      include.push(`${dir}/${name}`);
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
    },
    files: include,
  };
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(config));
  try {
    execFileSync(join(packageDir, '..', '..', 'node_modules', '.bin', 'tsc'), ['-p', join(scratch, 'tsconfig.json')], { stdio: 'pipe' });
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString() ?? String(error);
    // the unused-code flags are the template's, for the examples' own code: a user's app reads the packages'
    // built .d.ts (skipLibCheck), never their sources, so an unused local in a workspace source is not its error
    const errors = output.split('\n').filter((line) => /error TS/.test(line) && !(UNUSED.test(line) && !line.includes('.readme-check/')));
    if (errors.length > 0) expect.fail(`the README's examples do not compile:\n${output}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}, 60_000); // tsc over every example: seconds on a loaded 2-core machine
