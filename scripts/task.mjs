// The root npm scripts that need the workspace: `node scripts/task.mjs <task> [args...]`. Each installs pnpm's
// dependencies first (quick when they are already there), runs pnpm from PATH or through npx, so a machine with
// only Node and npm runs every one of them.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { installDependencies, pnpm, ROOT, run } from './bootstrap.mjs';
import { serveApp } from './serve.mjs';
import { ensureServices } from './services.mjs';

const PACKAGES = ['packages/runtime', 'packages/three', 'packages/pixi', 'packages/rapier', 'packages/react-three-fiber', 'packages/phaser', 'packages/babylon'];

/**
 * Task name -> what it says, and what it runs (after the install). The servers print the URL they listen on
 * (serve.mjs): the app's port from its vite.config.ts, or the next free one.
 */
const TASKS = {
  demo: ['serves the demo', (args) => serveApp('demo', 'dev', 'serving the demo', args)],
  'demo:preview': ['builds the demo and serves the build', (args) => serveApp('demo', 'preview', 'serving the built demo', args)],
  arena: ['serves the arena', (args) => serveApp('arena', 'dev', 'serving the arena', args)],
  babylon: ['serves the Babylon.js example (thin instances blended on the GPU; ?engine=webgpu)', (args) => serveApp('babylon-instances', 'dev', 'serving the Babylon.js example', args)],
  r3f: ['serves the React Three Fiber example', (args) => serveApp('r3f-bodies', 'dev', 'serving the React Three Fiber example', args)],
  phaser: ['serves the Phaser example (?mode=arcade: the same scene on Arcade physics)', (args) => serveApp('phaser-balls', 'dev', 'serving the Phaser example', args)],
  platforms: ['serves the Phaser platforms example (Rapier 2D in the worker)', (args) => serveApp('phaser-platforms', 'dev', 'serving the Phaser platforms example', args)],
  multiplayer: ['starts the multiplayer game on Colyseus (two processes and a Redis when it can; `-- --one`: one process; `-- --ws`: the bare WebSocket server) and serves its page (open it in two tabs)', (args) => serveMultiplayer(args)],
  'bench:page': [
    'serves the benchmark page (run one suite by hand; `npm run bench` runs them all)',
    (args) => serveApp('bench', 'dev', 'serving the benchmark page', args),
  ],
  'bench:net': [
    'measures the network client against @geckos.io/snapshot-interpolation (docs/net-judder.md), what a server pays per client (docs/net-scale.md), what snapshots cost on the wire in three scenes (docs/net-compression.md), when a server\'s ticks start (docs/server-ticks.md), rooms on Colyseus (docs/net-rooms.md) and prediction, corrections, hit registration and main-thread cost against Colyseus 0.18 (docs/net-vs-colyseus.md; it launches Chromium); `-- judder`, `-- scale`, `-- compression`, `-- server-ticks`, `-- rooms` or `-- colyseus` runs one',
    (args) => pnpmRun(['exec', 'vitest', 'run', '--project', 'bench-net', ...args], ROOT, { STEADYFRAME_BENCH_NET: '1' }),
  ],
  'bench:rooms': [
    'measures rooms on Colyseus with real processes (docs/net-rooms.md): a failover of a room of 16, join times through matchmaking on two processes, clients per process',
    (args) => {
      ensureServices();
      pnpmRun(['exec', 'vitest', 'run', '--project', 'bench-net', 'packages/colyseus/bench/rooms.measure.ts', ...args], ROOT, { STEADYFRAME_BENCH_NET: '1' });
    },
  ],
  build: ['builds each package into its dist/ (what a tarball ships)', () => PACKAGES.forEach((dir) => pnpmRun(['run', 'build'], join(ROOT, dir)))],
  pack: ['packs steadyframe and its adapters (three, pixi, rapier, react-three-fiber, phaser, babylon) into packs/', () => pack()],
};

/**
 * The multiplayer example: its page on Vite's server, and the game on Colyseus (apps/multiplayer/scripts/
 * colyseus-processes.mjs): two processes on Node 22 sharing a Redis of their own when a redis-server is here, else
 * one; the page asks one of them (their ports reach it as VITE_MULTIPLAYER_COLYSEUS). `--one`: one Colyseus
 * process, no Redis. `--ws`, or no Node 22: the bare game server (src/server.ts) on the page's own port, `/play`.
 */
async function serveMultiplayer(args) {
  const ws = args.includes('--ws');
  const one = args.includes('--one');
  const viteArgs = args.filter((arg) => arg !== '--ws' && arg !== '--one');
  if (ws) return serveMultiplayerWs(viteArgs, 'asked for with --ws');
  const { startColyseus } = await import('../apps/multiplayer/scripts/colyseus-processes.mjs');
  const { createServer } = await import('vite');
  // the game's module, bundled by Vite's own loader (game-module.ts is TypeScript)
  const loader = await createServer({ root: join(ROOT, 'apps', 'multiplayer'), server: { middlewareMode: true, hmr: false }, appType: 'custom', logLevel: 'warn' });
  const gameWorker = await (await loader.ssrLoadModule('/src/game-module.ts')).bundleGameWorker();
  await loader.close();
  // --host: the processes listen on every address, and tell pages on other machines this one's
  const exposed = viteArgs.includes('--host') || viteArgs.some((arg) => arg.startsWith('--host='));
  const publicHost = exposed ? lanAddress() : '127.0.0.1';
  const colyseus = await startColyseus({ gameWorker, processes: one ? 1 : 2, host: exposed ? '0.0.0.0' : '127.0.0.1', publicHost, ports: [2567, 2568] });
  if (colyseus === null) return serveMultiplayerWs(viteArgs, 'no Node 22 for Colyseus (STEADYFRAME_NODE22=/path/to/node)');
  const stopping = async () => {
    await colyseus.stop();
    process.exit(0);
  };
  process.once('SIGINT', stopping);
  process.once('SIGTERM', stopping);
  process.once('exit', () => colyseus.kill());
  process.env.VITE_MULTIPLAYER_COLYSEUS = colyseus.ports.join(',');
  await serveApp('multiplayer', 'dev', 'serving the multiplayer page', viteArgs);
  console.log(`steadyframe: the game runs on ${colyseus.why}`);
  for (const url of colyseus.urls) console.log(`  a Colyseus process (Node 22) at ${url}, room "game"`);
  const asks = colyseus.urls.length > 1 ? 'each page asks one of them; matchmaking seats it in the room wherever the room is' : 'pages join its room by name';
  console.log(`steadyframe: ${asks}: open the page in two tabs`);
}

/** The bare game server (src/server.ts: one process, a `ws` server) on the page's own port, `/play`. */
async function serveMultiplayerWs(args, why) {
  const server = await serveApp('multiplayer', 'dev', 'serving the multiplayer page', args);
  // the game server is TypeScript: Vite's own module loader runs it
  const { startGameServer } = await server.ssrLoadModule('/src/server.ts');
  await startGameServer({ server: server.httpServer, path: '/play' });
  console.log(`steadyframe: the game runs in this one process, on a bare WebSocket server (${why}): players at /play on the same port; open the page in two tabs`);
}

/** This machine's first non-internal IPv4 address (where pages on other machines reach the Colyseus processes). */
function lanAddress() {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return '127.0.0.1';
}

function pnpmRun(args, cwd = ROOT, env = {}) {
  const [command, ...prefix] = pnpm();
  run(command, [...prefix, ...args], { cwd, env: { ...process.env, ...env } });
}

function pack() {
  const packs = join(ROOT, 'packs');
  rmSync(packs, { recursive: true, force: true });
  mkdirSync(packs);
  // pnpm, not npm: it rewrites catalog:/workspace: versions and swaps in publishConfig's exports (dist/)
  for (const dir of PACKAGES) pnpmRun(['pack', '--pack-destination', packs], join(ROOT, dir));
  const tarballs = readdirSync(packs).map((name) => join(packs, name));
  console.log(`steadyframe: packed into ${packs}:\n${tarballs.map((path) => `  ${path}`).join('\n')}`);
  console.log(`install them in your app: npm install ${tarballs.join(' ')}`);
}

const [name, ...args] = process.argv.slice(2);
const task = TASKS[name];
if (task === undefined) {
  console.error(`steadyframe: no task "${name}"; the tasks: ${Object.keys(TASKS).join(', ')}`);
  process.exit(1);
}
installDependencies();
console.log(`steadyframe: ${name}: ${task[0]}`);
await task[1](args);
