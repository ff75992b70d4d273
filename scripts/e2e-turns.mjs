// One e2e file at a time, with the Node tests beside it. Vitest runs the Node projects' files in two workers
// (`maxWorkers: 2`, vitest.workspace.ts) so that the Node tests need not wait for the e2e files, each of which
// keeps a headless browser drawing on the CPU; two e2e files at once would each draw at half the rate and their
// waits would stretch. So an e2e file takes a turn before its first line runs, and gives it back after its last
// hook: `serveTurns` is the e2e project's global setup (Vitest's main process), a server on 127.0.0.1 that hands
// turns out in the order asked; `takeTurn` is the project's setup file, run in the test file's own process.
// A turn is a TCP connection: the server says "go" to the oldest waiting one; the turn ends when its connection
// closes, which a worker process that dies or is killed also does. Nothing here times anything.
import { createConnection, createServer } from 'node:net';

/** Vitest's global setup of the e2e project: starts the turn server and provides its port (`e2eTurns`). */
export default async function serveTurns(project) {
  /** @type {import('node:net').Socket[]} the turn's holder first, then the waiting in the order they asked */
  const queue = [];
  const server = createServer((socket) => {
    socket.on('error', () => {}); // a killed worker's connection resets: its turn ends as with a close
    socket.on('close', () => {
      const at = queue.indexOf(socket);
      if (at < 0) return;
      queue.splice(at, 1);
      if (at === 0 && queue.length > 0) queue[0].write('go\n');
    });
    queue.push(socket);
    if (queue.length === 1) socket.write('go\n');
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  project.provide('e2eTurns', server.address().port);
  return async () => {
    for (const socket of queue) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
}

/**
 * Waits for this file's turn (the setup file calls it before the test file is imported); returns the function
 * that ends it. A turn an earlier file of this process left open (a file that failed to import runs no hooks) is
 * ended first: one process holds at most one turn.
 */
export async function takeTurn(port) {
  globalThis.__steadyframeE2eTurn?.destroy();
  const socket = createConnection({ port, host: '127.0.0.1' });
  globalThis.__steadyframeE2eTurn = socket;
  await new Promise((resolve, reject) => {
    let said = '';
    socket.on('data', (data) => {
      said += data.toString();
      if (said.includes('go\n')) resolve(undefined);
    });
    socket.once('error', (error) => reject(new Error(`the e2e turn server on port ${port}: ${error.message}`)));
    socket.once('close', () => reject(new Error(`the e2e turn server on port ${port} closed before this file's turn`)));
  });
  return () => {
    socket.end();
    if (globalThis.__steadyframeE2eTurn === socket) globalThis.__steadyframeE2eTurn = undefined;
  };
}
