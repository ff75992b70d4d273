// `npm test`: sets up a fresh machine (pnpm, dependencies, Chromium, Firefox, WebKit, and for the Colyseus rooms'
// processes Node 22 and redis-server: scripts/services.mjs) and runs every check and test:
// type-checks, then the Node and browser test projects. STEADYFRAME_STRESS_ACQUIRES raises the swap stress.
import { readFileSync, rmSync } from 'node:fs';
import { installDependencies, pnpm, run, VITEST_REPORT } from './bootstrap.mjs';
import { ensureEngines } from './engines.mjs';
import { ensureServices } from './services.mjs';
import { stallReport } from './runner-stalls.mjs';

installDependencies();
// Chromium, Firefox and WebKit (each a Debian package, installed here when missing): site/reference/compatibility.md
const engines = ensureEngines();
console.log(`steadyframe: browser tests run in ${engines.join(', ')}`);
// Node 22 and redis-server for the Colyseus rooms' processes (packages/colyseus), each installed when missing
ensureServices();

const [command, ...prefix] = pnpm();
run(command, [...prefix, 'run', 'typecheck']);

const report = VITEST_REPORT;
rmSync(report, { force: true });
const result = run(command, [...prefix, 'exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
  stdio: 'inherit',
  allowFailure: true,
});
// one plain closing line, whatever reporter the CI reads
const summary = JSON.parse(readFileSync(report, 'utf8'));
console.log(`steadyframe: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests} skipped`);
console.log(stallReport());
process.exit(result.status ?? 0);
