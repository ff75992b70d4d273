/**
 * steadyframe/testing/node: what the packages' Node tests share (never in a game, never published). A worker
 * module as Node can import it: the browser worker module, unchanged, bundled with Vite (TypeScript and the
 * workspace's source-first packages compiled in), as an app would ship it for `createNodeRuntime`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'vite';

/** Bundles `entry` (a worker module's path) into one ES module Node can run; returns its path. */
export async function buildWorkerModule(entry: string): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'steadyframe-worker-'));
  const name = basename(entry).replace(/\.[cm]?[jt]s$/, '');
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'node20',
      // one file: what the runtime loads on demand (record and replay, the message transport) inlined too
      rollupOptions: { output: { format: 'es', entryFileNames: `${name}.mjs`, codeSplitting: false } },
    },
    // everything in the one file: comlink, steadyframe, the game's modules
    ssr: { noExternal: true, target: 'node' },
  });
  return join(outDir, `${name}.mjs`);
}

export { mulberry32 } from './prng.ts';
export { createShapedRelay } from './shaped-relay.ts';
export type { LinkShape, ShapedRelay } from './shaped-relay.ts';
