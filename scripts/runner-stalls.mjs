// The test runner's own stalls: Vitest's main process serves every browser test's modules (and its workers'
// scripts) and carries every test's results, so a stall there stalls tests in every engine at once: a worker
// that does not attach in time, a page that draws no frames. `watchStalls()` (vitest.config.ts) notes each time
// its event loop was held for STALL_MS or more, with when; `npm test` prints them after the run's summary, so
// a failure under load can be told apart from a stall of the runner.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const STALLS_FILE = join(ROOT, 'node_modules', '.cache', 'steadyframe-runner-stalls.json');
/** A hold of the event loop this long (ms) or longer is noted. */
const STALL_MS = 1000;
const EVERY_MS = 100;

/** Starts noting the process's event-loop stalls; written to STALLS_FILE as they happen (the process may be killed). */
export function watchStalls() {
  mkdirSync(dirname(STALLS_FILE), { recursive: true });
  const stalls = [];
  writeFileSync(STALLS_FILE, '[]');
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const held = now - last - EVERY_MS;
    last = now;
    if (held < STALL_MS) return;
    stalls.push({ at: new Date(Date.now() - held).toISOString(), ms: Math.round(held) });
    writeFileSync(STALLS_FILE, JSON.stringify(stalls));
  }, EVERY_MS);
  timer.unref();
}

/** The stalls noted by the last run, in words (empty when there were none or no file). */
export function stallReport() {
  let stalls;
  try {
    stalls = JSON.parse(readFileSync(STALLS_FILE, 'utf8'));
  } catch {
    return '';
  }
  if (stalls.length === 0) return `steadyframe: the test runner's event loop was never held ${STALL_MS} ms or more`;
  const worst = Math.max(...stalls.map((s) => s.ms));
  return `steadyframe: the test runner's event loop was held ${STALL_MS} ms or more ${stalls.length} times (the longest ${worst} ms): ${stalls.map((s) => `${s.at.slice(11, 19)} ${s.ms} ms`).join(', ')}`;
}
