// The game's Colyseus processes, started and stopped by `npm run multiplayer` (scripts/task.mjs) and by the
// Colyseus e2e test: a Redis of their own (Debian's redis-server on a free loopback port, nothing on disk) and
// src/colyseus-server.ts on Node 22, each on its own port, all sharing the Redis; or, without a redis-server,
// one process alone. Node 22 and redis-server are found as the package tests find them (scripts/services.mjs).
//
//   startColyseus({ processes: 2 })
//     ├─ Node 22?  no ───────────────▶ null (the caller says so and serves the game its own way)
//     ├─ redis-server? no, or it failed ─▶ one process, alone (`why` says so)
//     └─ yes: redis on a free port ──▶ two processes on it: a page asking either is seated in a room of either
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureNode22, findNode22, findRedisServer } from '../../../scripts/services.mjs';

const SERVER_ENTRY = fileURLToPath(new URL('../src/colyseus-server.ts', import.meta.url));

/** `port` on `host` if it is free, else a free port the OS picks (released for the process that will listen). */
export function freePort(port = 0, host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error) => (port === 0 ? reject(error) : resolve(freePort(0, host))));
    server.listen(port, host, () => {
      const { port: taken } = server.address();
      server.close(() => resolve(taken));
    });
  });
}

/** Stops a child: SIGTERM, then SIGKILL if it has not exited `graceMs` later. */
async function stop(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Spawns `binary args`, resolves with the child once its output shows `ready`; rejects if it exits first or after `timeoutMs` (a hang guard). */
function startChild(what, binary, args, env, ready, timeoutMs = 30_000) {
  const child = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what}: not ready in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (data) => {
      output += data.toString();
      if (!ready.test(output)) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      // from here its errors go to ours: a room that failed says so in the dev task's console
      child.stderr.on('data', (data) => process.stderr.write(`[${what}] ${data}`));
      resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/**
 * Starts the game's Colyseus processes. Options: `gameWorker` (the bundled game module's path: game-module.ts),
 * `processes` (how many with a Redis; default 2), `host` (the address they listen on; default 127.0.0.1),
 * `publicHost` (the one pages reach them at), `ports` (preferred ones; taken ones move to free ones), `install`
 * (install Node 22 from the npm registry when missing; default true). Resolves to null without Node 22, else
 * `{ urls, ports, redis, why, stop() }`: `redis` the Redis URL or null, `why` a sentence saying what runs.
 */
export async function startColyseus({ gameWorker, processes = 2, host = '127.0.0.1', publicHost = host, ports = [], install = true }) {
  const node22 = install ? ensureNode22() : findNode22();
  if (node22 === null) return null;
  /** The Redis server's process (null: none), and the game's. */
  let redisChild = null;
  const servers = [];
  const stopAll = async () => {
    // the game's processes first: they close their Redis connections before the Redis goes
    for (const child of servers.toReversed()) await stop(child);
    if (redisChild !== null) await stop(redisChild);
  };
  let redis = null;
  let why;
  const redisServer = findRedisServer();
  if (processes < 2) {
    why = 'one Colyseus process, no Redis (asked for one)';
  } else if (redisServer === null) {
    processes = 1;
    why = 'one Colyseus process, no Redis: no redis-server here (Debian: apt-get install -y redis-server, or STEADYFRAME_REDIS_SERVER=/path)';
  } else {
    const port = await freePort();
    try {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
      redisChild = await startChild('redis-server', redisServer, args, process.env, /Ready to accept connections/);
      redis = `redis://127.0.0.1:${port}`;
      why = `${processes} Colyseus processes sharing a Redis of their own (${redisServer} on 127.0.0.1:${port}, stopped with them)`;
    } catch (error) {
      processes = 1;
      why = `one Colyseus process, no Redis: redis-server did not start (${error.message.split('\n')[0]})`;
    }
  }
  const taken = [];
  try {
    for (let i = 0; i < processes; i++) {
      const port = await freePort(ports[i] ?? 0, host);
      taken.push(port);
      const env = {
        ...process.env,
        STEADYFRAME_PORT: String(port),
        STEADYFRAME_HOST: host,
        STEADYFRAME_PUBLIC_HOST: publicHost,
        STEADYFRAME_GAME_WORKER: gameWorker,
        STEADYFRAME_REDIS: redis ?? '',
        // a room's onCreate starts its runtime's worker thread, which can take over the 2 s Colyseus waits for a
        // room another process creates on a loaded machine (site/guides/colyseus.md)
        COLYSEUS_PRESENCE_SHORT_TIMEOUT: '10000',
      };
      // a test runner's variables would make Colyseus think it runs under a test runner of its own
      delete env.VITEST;
      delete env.NODE_OPTIONS;
      servers.push(await startChild(`colyseus :${port}`, node22, ['--experimental-transform-types', '--no-warnings', SERVER_ENTRY], env, /listening on/));
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    urls: taken.map((port) => `http://${publicHost}:${port}`),
    ports: taken,
    redis,
    why,
    stop: stopAll,
    /** Kills every child at once (a last resort, on the parent's exit). */
    kill: () => [...servers, redisChild].forEach((child) => child !== null && child.exitCode === null && child.kill('SIGKILL')),
  };
}
