// The root npm scripts that need the workspace: `node scripts/task.mjs <task> [args...]`. Each installs pnpm's
// dependencies first (quick when they are already there), runs pnpm from PATH or through npx, so a machine with
// only Node and npm runs every one of them.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { installDependencies, pnpm, ROOT, run } from './bootstrap.mjs';
import { serveApp } from './serve.mjs';

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
  multiplayer: ['starts the multiplayer server and serves its page (open it in two tabs)', (args) => serveMultiplayer(args)],
  'bench:page': [
    'serves the benchmark page (run one suite by hand; `npm run bench` runs them all)',
    (args) => serveApp('bench', 'dev', 'serving the benchmark page', args),
  ],
  'bench:net': [
    'measures the network client against @geckos.io/snapshot-interpolation (docs/net-judder.md), what a server pays per client (docs/net-scale.md), what snapshots cost on the wire in three scenes (docs/net-compression.md), when a server\'s ticks start (docs/server-ticks.md) and prediction, corrections, hit registration and main-thread cost against Colyseus 0.18 (docs/net-vs-colyseus.md; it launches Chromium); `-- judder`, `-- scale`, `-- compression`, `-- server-ticks` or `-- colyseus` runs one',
    (args) => pnpmRun(['exec', 'vitest', 'run', '--project', 'bench-net', ...args], ROOT, { STEADYFRAME_BENCH_NET: '1' }),
  ],
  build: ['builds each package into its dist/ (what a tarball ships)', () => PACKAGES.forEach((dir) => pnpmRun(['run', 'build'], join(ROOT, dir)))],
  pack: ['packs steadyframe and its adapters (three, pixi, rapier, react-three-fiber, phaser, babylon) into packs/', () => pack()],
};

/** The multiplayer example: its page on Vite's server, and the game server on the same port's `/play`. */
async function serveMultiplayer(args) {
  const server = await serveApp('multiplayer', 'dev', 'serving the multiplayer page', args);
  // the game server is TypeScript: Vite's own module loader runs it
  const { startGameServer } = await server.ssrLoadModule('/src/server.ts');
  await startGameServer({ server: server.httpServer, path: '/play' });
  console.log('steadyframe: the game server takes players at /play on the same port: open the page in two tabs');
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
