/**
 * `npm run bench:net -- colyseus` (or all of `npm run bench:net`): ours against Colyseus 0.18 on the same small
 * game over the same shaped links (issue #41, item 5). Writes docs/net-vs-colyseus.md.
 *
 * For each link (one-way 50 and 100 ms, ±20 ms jitter, 2% loss, as a WebSocket crosses it: vs-colyseus/
 * stream-link.ts) a duel of two clients on each stack (vs-colyseus/scenes.ts: key presses, collisions, shots),
 * and ours again over the repository's datagram relay as a reference; then each stack's client in a Chromium page
 * at 50 players and 1,000 entities (vs-colyseus/main-thread.ts). Colyseus's server runs on Node 22
 * (vs-colyseus/colyseus-process.ts). Launches a browser: on a shared machine,
 * `flock /tmp/steadyframe-browser.lock npm run bench:net -- colyseus`. Not part of `npm test`.
 *
 * STEADYFRAME_VS_QUICK=1: a short run to try things (the 100 ms link only, fewer presses and shots; writes the
 * document to STEADYFRAME_VS_OUT, or nowhere). Every run keeps what it measured in
 * node_modules/.cache/steadyframe-bench/net-vs-colyseus.json; STEADYFRAME_VS_RENDER=<that file> writes the document
 * from it again without measuring (a change to the report's words).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { startColyseus } from './vs-colyseus/colyseus-process.ts';
import { colyseusDuel, oursDuel } from './vs-colyseus/duels.ts';
import { measureMainThread } from './vs-colyseus/main-thread.ts';
import { renderReport, type LinkRuns, type ReportInput } from './vs-colyseus/report.ts';
// @ts-expect-error: a plain .mjs helper shared with the scripts; it has no type declarations.
import { NODE22_VERSION } from '../../../scripts/services.mjs';

const QUICK = process.env.STEADYFRAME_VS_QUICK === '1';
const LINKS = QUICK ? [100] : [50, 100];
const SHAPE = { jitterMs: 20, loss: 0.02 };
const OPTIONS = QUICK ? { presses: 8, collisionMs: 5000, shots: 30, seed: 1 } : { presses: 30, collisionMs: 15_000, shots: 150, seed: 1 };
const MAIN_FRAMES = QUICK ? 300 : 600;

/** The installed version of a package this package depends on. */
function versionOf(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string };
      if (pkg.name === name) return pkg.version;
    } catch {
      // not there: one folder up
    }
    dir = dirname(dir);
  }
}

const DOC = fileURLToPath(new URL('../../../docs/net-vs-colyseus.md', import.meta.url));
const KEPT = fileURLToPath(new URL('../../../node_modules/.cache/steadyframe-bench/net-vs-colyseus.json', import.meta.url));

/** Writes the document (a quick run's to STEADYFRAME_VS_OUT, if set) and says the goals. */
function write(input: ReportInput, quick: boolean): void {
  const { markdown, goals } = renderReport(input);
  const out = quick ? process.env.STEADYFRAME_VS_OUT : DOC;
  if (out !== undefined) writeFileSync(out, markdown);
  console.log(`${markdown}\n${out === undefined ? '(quick: not written)' : `written to ${out}`}; goals: ${JSON.stringify(goals)}`);
}

it('measures ours against Colyseus 0.18: input to drawn, corrections, hit registration, main thread', async () => {
  const render = process.env.STEADYFRAME_VS_RENDER;
  if (render !== undefined) {
    const kept = JSON.parse(readFileSync(render, 'utf8')) as { quick: boolean; input: ReportInput };
    write(kept.input, kept.quick);
    return;
  }
  const started = performance.now();
  const loadStart = loadavg();
  const colyseus = await startColyseus();
  const links: LinkRuns[] = [];
  try {
    for (const oneWayMs of LINKS) {
      const shape = { oneWayMs, ...SHAPE, seed: oneWayMs };
      const ours = await oursDuel(shape, OPTIONS);
      const colyseusRun = await colyseusDuel(colyseus, shape, OPTIONS);
      const datagram = await oursDuel(shape, OPTIONS, true);
      links.push({ oneWayMs, ours, colyseus: colyseusRun, datagram });
    }
    const main = await measureMainThread(colyseus, MAIN_FRAMES);
    const input: ReportInput = {
      date: new Date().toISOString(),
      seconds: (performance.now() - started) / 1000,
      machine: `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version} (ours, both stacks' clients), Node ${NODE22_VERSION} (Colyseus's server)`,
      load: { start: loadStart, end: loadavg() },
      versions: {
        '@colyseus/core': versionOf('@colyseus/core'),
        '@colyseus/sdk': versionOf('@colyseus/sdk'),
        '@colyseus/schema': versionOf('@colyseus/schema'),
        '@colyseus/ws-transport': versionOf('@colyseus/ws-transport'),
      },
      options: OPTIONS,
      shape: SHAPE,
      links,
      main,
      mainFrames: MAIN_FRAMES,
    };
    mkdirSync(dirname(KEPT), { recursive: true });
    writeFileSync(KEPT, JSON.stringify({ quick: QUICK, input }));
    write(input, QUICK);
    // a run that measured nothing says nothing: every duel must have pressed, collided and shot
    for (const l of links) for (const run of [l.ours, l.colyseus, l.datagram]) expect(run.record.shots.length).toBe(OPTIONS.shots);
  } finally {
    await colyseus.stop();
  }
}, 1_800_000);
