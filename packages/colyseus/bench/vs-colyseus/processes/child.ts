/**
 * The benchmark's helper processes (Node 20): an entry of this folder bundled as an app ships it (Vite, as
 * `buildWorkerModule` bundles a worker; vite itself left out), spawned with an IPC channel, asked by `type` and
 * answered by the same `id`. The links and our server run in processes of their own, so that their timers (a
 * shaped message handed on at its time, a snapshot published) do not wait behind the measured clients' frames on
 * the benchmark's thread, as Colyseus's server runs in its own process (colyseus-process.ts).
 *
 * ```text
 *   benchmark ── { id, type, ...args } ──▶ child (ipc.ts `serve`)
 *             ◀── { id, result } or { id, error } ──
 * ```
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from '../../../test/node/support/processes.ts';
import { build } from 'vite';

const built = new Map<string, Promise<string>>();
/** Under the workspace's node_modules, so that what the bundle leaves out (vite, if it is asked for) resolves. */
const CACHE = fileURLToPath(new URL('../../../../../node_modules/.cache/steadyframe-bench/', import.meta.url));

/** `entry` (a .process.ts of this folder) as one ES module for Node 20: its path (built once a run). */
function bundle(entry: string): Promise<string> {
  let out = built.get(entry);
  if (out === undefined) {
    mkdirSync(CACHE, { recursive: true });
    const outDir = mkdtempSync(CACHE);
    const name = basename(entry).replace(/\.ts$/, '');
    out = build({
      configFile: false,
      logLevel: 'warn',
      build: { ssr: entry, outDir, emptyOutDir: true, minify: false, target: 'node20', rollupOptions: { output: { format: 'es', entryFileNames: `${name}.mjs` }, treeshake: { moduleSideEffects: 'no-external' } } },
      ssr: { noExternal: true, external: ['vite'], target: 'node' },
    }).then(() => join(outDir, `${name}.mjs`));
    built.set(entry, out);
  }
  return out;
}

export interface Child {
  ask<T>(type: string, args?: object): Promise<T>;
  stop(): Promise<void>;
}

export async function spawnChild(name: 'link' | 'ours'): Promise<Child> {
  const module = await bundle(fileURLToPath(new URL(`./${name}.process.ts`, import.meta.url)));
  const child = spawn(process.execPath, [module], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, VITEST: '' } });
  const waiting = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  let next = 0;
  child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error !== undefined) w?.reject(new Error(`steadyframe bench (${name} process): ${m.error}`));
    else w?.resolve(m.result as never);
  });
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`steadyframe bench: the ${name} process exited (${code})`));
    waiting.clear();
  });
  return {
    ask<T>(type: string, args: object = {}) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: never) => void, reject });
        child.send({ id, type, ...args });
      });
    },
    stop: () => stopChild(child),
  };
}
