/**
 * The rooms bench's load: load-clients.mjs in a process of its own (Node 20, @colyseus/sdk), driven a line at a
 * time (its comment says what each command answers).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface LoadJoin {
  /** Ms from the join asked to the room joined. */
  readonly ms: number;
  readonly roomId: string;
}

export interface LoadReport {
  readonly clients: number;
  /** Each client's room. */
  readonly rooms: readonly string[];
  /** Each client's snapshots since the last report, and the ones the server sent it that never came. */
  readonly snapshots: readonly number[];
  readonly gaps: readonly number[];
  readonly bytes: number;
}

export interface LoadGroup {
  /** Joins `count` more clients, one after the other, through the URLs in turn. */
  add(count: number): Promise<LoadJoin[]>;
  report(): Promise<LoadReport>;
  exit(): Promise<void>;
}

export async function loadGroup(name: string, urls: readonly string[]): Promise<LoadGroup> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./load-clients.mjs', import.meta.url)), name, ...urls], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const ask = async <T>(command: string): Promise<T> => {
    child.stdin!.write(`${command}\n`);
    const line = await lines.next();
    if (line.done === true) throw new Error(`the load clients ended (${String(child.exitCode)}) before they answered "${command}"`);
    return JSON.parse(line.value as string) as T;
  };
  return {
    add: async (count) => (await ask<{ joins: LoadJoin[] }>(`add ${count}`)).joins,
    report: () => ask<LoadReport>('report'),
    async exit() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin!.write('exit\n');
      // its rooms left, it ends; one that does not within 5 s is killed
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
