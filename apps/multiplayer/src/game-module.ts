/**
 * The server's simulation module (game.worker.ts) bundled into one ES module, as a server ships it: each runtime
 * that hosts the game (server.ts's, or each Colyseus room's, colyseus-server.ts) starts a worker thread on it.
 * Bundled by Vite on the Node that runs the dev task or the tests; the Colyseus processes (Node 22) are given its
 * path, and run it as it is.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Bundles game.worker.ts into a fresh temporary folder; returns the module's path. */
export async function bundleGameWorker(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'steadyframe-multiplayer-'));
  const entry = fileURLToPath(new URL('./game.worker.ts', import.meta.url));
  await build({
    configFile: false,
    logLevel: 'warn',
    build: { ssr: entry, outDir, emptyOutDir: true, target: 'node20', rollupOptions: { output: { format: 'es', entryFileNames: 'game.worker.mjs' } } },
    ssr: { noExternal: true, target: 'node' },
  });
  return join(outDir, 'game.worker.mjs');
}
