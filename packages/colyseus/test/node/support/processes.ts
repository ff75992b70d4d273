/**
 * The rooms tests' processes, real ones, started and stopped by the tests: a Redis server on a free loopback port
 * (no persistence), and Colyseus server processes (support/room-server.ts) on Node 22, each on a free port of
 * 127.0.0.1. Node 22 and redis-server come from scripts/services.mjs (`npm test` installs both when missing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildWorkerModule } from 'steadyframe/testing/node';
import type { FailoverStats, RestoredFrom, RoomSaveStats } from '@steadyframe/colyseus';
// @ts-expect-error: a plain .mjs helper shared with the scripts; it has no type declarations.
import { findNode22, findRedisServer } from '../../../../../scripts/services.mjs';

const ROOM_SERVER = fileURLToPath(new URL('./room-server.ts', import.meta.url));
/**
 * The game's module bundled into one JavaScript file, as an app ships it (once per test file): each room starts a
 * worker thread on it, and the TypeScript of the runtime transformed as it loads takes seconds a room here.
 */
const gameWorkers = new Map<string, Promise<string>>();
const builtGameWorker = (path = fileURLToPath(new URL('../fixtures/game.worker.ts', import.meta.url))): Promise<string> => {
  if (!gameWorkers.has(path)) gameWorkers.set(path, buildWorkerModule(path));
  return gameWorkers.get(path)!;
};

/** A free TCP port on 127.0.0.1 (the OS's pick, released for the process that will listen on it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Stops a child: SIGTERM, then SIGKILL if it has not exited `graceMs` later. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Resolves when `child`'s output has shown `pattern`; rejects if it exits first or after `timeoutMs` (a hang guard). */
function waitForOutput(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 15_000): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not ready in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (data: Buffer) => {
      output += data.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

export interface RedisProcess {
  readonly url: string;
  stop(): Promise<void>;
}

/** Debian's redis-server on a free loopback port: no snapshots, no append-only file, nothing on disk. */
export async function startRedis(): Promise<RedisProcess> {
  const binary = findRedisServer() as string | null;
  if (binary === null) throw new Error('steadyframe: no redis-server: `npm test` installs it (Debian: apt-get install -y redis-server), or set STEADYFRAME_REDIS_SERVER');
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForOutput(child, /Ready to accept connections/, 'redis-server');
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

/** What a room server says of itself (support/room-server.ts `report`). */
export interface RoomServerReport {
  readonly processId: string;
  readonly joined: ReadonlyArray<[string, number]>;
  readonly left: ReadonlyArray<[string, number]>;
  readonly rooms: ReadonlyArray<{
    readonly roomId: string;
    readonly clients: readonly string[];
    readonly seats: number;
    readonly createMs: number;
    readonly lastTick: number;
    readonly sent: number;
    readonly host: { readonly open: number; readonly connections: number; readonly closed: Record<string, number> };
    readonly saves: RoomSaveStats | null;
    readonly restored: RestoredFrom | null;
  }>;
  readonly failover: FailoverStats | null;
}

/** A room's game's states (fixtures/game.worker.ts `history`): [steps, chain, marks] of the state its instance started from and of each step it made. */
export interface GameHistory {
  readonly firstSteps: number;
  readonly states: ReadonlyArray<readonly [number, number, number]>;
}

export interface RoomServer {
  /** Where clients find it: http://127.0.0.1:port (the SDK's endpoint). */
  readonly url: string;
  readonly processId: string;
  /** The OS's process id. */
  readonly pid: number;
  report(): Promise<RoomServerReport>;
  /** Breaks a session's link: its TCP socket destroyed, no close frame. */
  drop(sessionId: string): Promise<void>;
  /** Creates a room on this process (not where the process counts would put it); its id. */
  create(): Promise<string>;
  /** The game's states in one of this process's rooms, or null if it has no such room. */
  history(roomId: string): Promise<GameHistory | null>;
  /** SIGKILL: the process dies at once, its rooms with it (no dispose, no goodbye to Redis or the clients). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface RoomServerOptions {
  readonly redis?: string;
  readonly maxClients?: number;
  readonly reconnectSeconds?: number;
  readonly saveSeconds?: number;
  /** Another server module than support/room-server.ts (the bench's), and the game module it runs (a path: bundled). */
  readonly script?: string;
  readonly gameWorker?: string;
  /** More of its environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A Colyseus server process on Node 22 hosting the game, listening on a free port of 127.0.0.1. */
export async function startRoomServer(options: RoomServerOptions = {}): Promise<RoomServer> {
  const node22 = findNode22() as string | null;
  if (node22 === null) throw new Error('steadyframe: no Node 22 for the Colyseus processes: `npm test` installs it (node scripts/services.mjs), or set STEADYFRAME_NODE22');
  const port = await freePort();
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...options.env, STEADYFRAME_PORT: String(port), STEADYFRAME_GAME_WORKER: await builtGameWorker(options.gameWorker) };
  if (options.redis !== undefined) env.STEADYFRAME_REDIS = options.redis;
  if (options.maxClients !== undefined) env.STEADYFRAME_MAX_CLIENTS = String(options.maxClients);
  if (options.reconnectSeconds !== undefined) env.STEADYFRAME_RECONNECT_SECONDS = String(options.reconnectSeconds);
  if (options.saveSeconds !== undefined) env.STEADYFRAME_SAVE_SECONDS = String(options.saveSeconds);
  // a room's onCreate starts its runtime's worker thread, which can take over the 2 s Colyseus waits for a room
  // another process creates on two loaded cores (the README says so)
  env.COLYSEUS_PRESENCE_SHORT_TIMEOUT = '10000';
  // Vitest's own variables would make Colyseus think it runs under a test runner of its own
  delete env.VITEST;
  delete env.NODE_OPTIONS;
  const child = spawn(node22, ['--experimental-transform-types', '--no-warnings', options.script ?? ROOM_SERVER], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  type Answer = { type: string; processId?: string; pid?: number; report?: RoomServerReport; roomId?: string; history?: GameHistory | null };
  const answers: Array<(message: Answer) => void> = [];
  child.on('message', (message) => answers.shift()?.(message as never));
  const ask = (type: string, extra: object = {}) =>
    new Promise<Answer>((resolve, reject) => {
      if (child.exitCode !== null) return reject(new Error(`the room server exited (${child.exitCode}):\n${output}`));
      answers.push(resolve);
      if (type !== 'listening') child.send({ type, ...extra });
    });
  const listening = await Promise.race([
    ask('listening'),
    new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the room server exited (${code}) before it listened:\n${output}`)))),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the room server did not listen in 20 s:\n${output}`)), 20_000).unref()),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    processId: listening.processId!,
    pid: child.pid!,
    report: async () => (await ask('report')).report!,
    drop: async (sessionId) => void (await ask('drop', { sessionId })),
    create: async () => (await ask('create')).roomId!,
    history: async (roomId) => (await ask('history', { roomId })).history!,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    stop: () => stopChild(child),
  };
}
