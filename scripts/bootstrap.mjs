// Sets up a fresh machine that has only Node and npm: pnpm, the workspace's dependencies, and (for tests)
// the browsers (scripts/engines.mjs). Used by `npm start`, `npm test` and `npm run bench`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureEngines, findChromium } from './engines.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm test` has Vitest write its JSON report (`npm run test:loaded` reads it). */
export const VITEST_REPORT = join(ROOT, 'node_modules', '.cache', 'steadyframe-vitest.json');
const PNPM_VERSION = '12';

/** Runs a command in the workspace root, streaming its output; exits this process if it fails. */
export function run(command, args, options = {}) {
  // allowFailure: the caller reads the status itself (npm test prints its closing lines after a failed run too)
  const { allowFailure = false, ...spawnOptions } = options;
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...spawnOptions });
  if (result.error) {
    console.error(`steadyframe: could not run ${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0 && !allowFailure) process.exit(result.status ?? 1);
  return result;
}

function works(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return result.status === 0;
}

/** The pnpm command line: a pnpm already on PATH, or one run through npx. */
export function pnpm() {
  if (works('pnpm', ['--version'])) return ['pnpm'];
  return ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

/** Installs the workspace's dependencies from the lockfile. */
export function installDependencies() {
  const [command, ...prefix] = pnpm();
  const frozen = existsSync(join(ROOT, 'pnpm-lock.yaml')) ? ['--frozen-lockfile'] : [];
  run(command, [...prefix, 'install', ...frozen]);
}

/** Finds Chromium, installing Debian's package when we are root on Debian; otherwise says what to do. */
export function ensureChromium() {
  ensureEngines(['chromium']);
  return findChromium();
}
