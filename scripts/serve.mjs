// Serves one of the workspace's apps with Vite's own server, in this process, and prints the URL it actually
// listens on, read from the server (`resolvedUrls`), never a constant: when the app's port (its vite.config.ts:
// demo 5173, arena 5174, physics 5175, bench 5176; previews 417x) is taken, Vite moves to the next free one.
// Used by `npm start`, `npm run physics` and task.mjs (demo, demo:preview, arena, bench:page); it imports Vite
// only when called, after bootstrap.mjs has installed the dependencies.
import { join } from 'node:path';
import { ROOT } from './bootstrap.mjs';

/** The command-line options passed on to Vite (what `vite --help` calls them), with how many values each takes. */
const OPTIONS = { '--port': 1, '--host': 1, '--strictPort': 0, '--open': 0 };

/** `--port 3000 --host 0.0.0.0 --strictPort --open` (or `--port=3000`) into Vite's server options; throws on others. */
export function serverOptions(args) {
  const options = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s, 2);
    if (!(flag in OPTIONS)) {
      throw new Error(`steadyframe: unknown option "${args[i]}"; the options: ${Object.keys(OPTIONS).join(', ')}`);
    }
    // a value inline (--port=3000) or next (--port 3000); --host alone (followed by another option) is all addresses
    const value = OPTIONS[flag] === 0 ? undefined : (inline ?? (args[i + 1]?.startsWith('--') ? undefined : args[++i]));
    if (flag === '--port') {
      options.port = Number(value);
      if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) throw new Error(`steadyframe: --port takes a port number; got ${value}`);
    } else if (flag === '--host') {
      options.host = value === undefined || value === 'true' ? true : value;
    } else if (flag === '--strictPort') {
      options.strictPort = true;
    } else {
      options.open = true;
    }
  }
  return options;
}

/**
 * Serves `apps/<app>`: `mode` 'dev' (the dev server), or 'preview' (builds it, then serves the build). Prints
 * `steadyframe: <what> at <url> (Ctrl-C stops it)` with the URL Vite listens on; returns the server.
 */
export async function serveApp(app, mode, what, args = []) {
  let overrides;
  try {
    overrides = serverOptions(args);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const { build, createServer, preview } = await import('vite');
  const root = join(ROOT, 'apps', app);
  let server;
  if (mode === 'dev') {
    server = await createServer({ root, server: overrides });
    await server.listen();
  } else {
    await build({ root, logLevel: 'warn' });
    server = await preview({ root, preview: overrides });
  }
  const { local = [], network = [] } = server.resolvedUrls ?? {};
  const url = local[0] ?? network[0];
  if (url === undefined) throw new Error(`steadyframe: Vite did not say where it serves ${app}`);
  console.log(`steadyframe: ${what} at ${url} (Ctrl-C stops it)`);
  for (const other of [...local.slice(1), ...network]) if (other !== url) console.log(`  also at ${other}`);
  return server;
}
