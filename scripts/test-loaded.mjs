// `npm run test:loaded`: the whole suite (`npm test`, as the README runs it) with every core busy. One CPU
// burner per core (a child process spinning a busy loop) starts first and runs until the suite ends, however it
// ends (a failure, Ctrl-C, a kill: each burner also watches this process and exits when it is gone). Then a
// short result goes to docs/loaded-run.md: when, the machine's cores, the load average at the start and the end,
// tests passed and failed, and how long it took. Not part of `npm test` (it about doubles the time).
//
// The suite must pass like this: its timing is proven in Node on a manual clock, and what the browser tests
// assert is what load cannot break (ARCHITECTURE.md, "How the tests stand up to load").
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, VITEST_REPORT } from './bootstrap.mjs';

const OUT = join(ROOT, 'docs', 'loaded-run.md');
const cores = availableParallelism();

/** A busy loop in a child process that exits once its parent (this script) is gone, whatever killed it. */
const BURNER = `
const parent = ${process.pid};
let n = 0;
for (;;) {
  if ((++n & 0xfffff) === 0) {
    try { process.kill(parent, 0); } catch { process.exit(0); }
  }
}`;

const burners = [];
function stopBurners() {
  for (const burner of burners.splice(0)) {
    try {
      burner.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopBurners();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

const loadAtStart = loadavg();
const started = new Date();
const startMs = performance.now();
for (let i = 0; i < cores; i++) burners.push(spawn(process.execPath, ['-e', BURNER], { stdio: 'ignore' }));
console.log(`steadyframe: ${cores} CPU burners running (one per core); load average ${fmt(loadAtStart)}; running npm test beside them`);

// the README's whole test command, as it is: set-up, type-check, every test project; its report is read after
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const child = spawn(npm, ['test'], { cwd: ROOT, stdio: 'inherit', env: process.env });
const status = await new Promise((resolve) => {
  child.on('error', (error) => {
    console.error(`steadyframe: could not run npm test: ${error.message}`);
    resolve(1);
  });
  child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
});
const loadAtEnd = loadavg();
const seconds = (performance.now() - startMs) / 1000;
stopBurners();

// what Vitest's JSON reporter wrote (scripts/test.mjs asks for it); none if the run stopped before the tests
let summary = null;
if (existsSync(VITEST_REPORT)) {
  const report = JSON.parse(readFileSync(VITEST_REPORT, 'utf8'));
  // a report from an earlier run is not this one's
  if (report.startTime >= started.getTime()) summary = report;
}
const failed = summary === null ? [] : summary.testResults.flatMap((file) => file.assertionResults.filter((t) => t.status === 'failed').map((t) => `${file.name.replace(`${ROOT}/`, '')}: ${t.fullName}`));

const lines = [
  '# The test suite with every core busy',
  '',
  'Written by `npm run test:loaded` (scripts/test-loaded.mjs): `npm test` run beside one CPU burner per core (a',
  'busy loop in a child process each). It must pass: the timing the browser tests used to count in wall-clock',
  'windows is proven in Node on a manual clock, and the browser tests assert what load cannot break',
  '(ARCHITECTURE.md, "How the tests stand up to load").',
  '',
  '| | |',
  '|---|---|',
  `| date | ${started.toISOString()} |`,
  `| machine | ${cores} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version} |`,
  `| CPU burners | ${cores} |`,
  `| load average (1, 5, 15 min) at the start | ${fmt(loadAtStart)} |`,
  `| load average (1, 5, 15 min) at the end | ${fmt(loadAtEnd)} |`,
  `| tests | ${summary === null ? 'no report: the run stopped before the tests (set-up or type-check failed)' : `${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests} skipped, in ${summary.testResults.length} files`} |`,
  `| npm test exit status | ${status} |`,
  `| duration | ${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s |`,
  '',
  ...(failed.length === 0 ? [] : ['Failed:', '', ...failed.map((name) => `- ${name}`), '']),
];
writeFileSync(OUT, `${lines.join('\n')}\n`);
console.log(`steadyframe: loaded run ${status === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s (load ${fmt(loadAtStart)} -> ${fmt(loadAtEnd)}); written to docs/loaded-run.md`);
process.exit(status);

function fmt(load) {
  return load.map((v) => v.toFixed(2)).join(', ');
}
