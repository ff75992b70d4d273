/**
 * The browser tests' fixture worker modules, unchanged, as Node runs them: each bundled once per test file
 * (`buildWorkerModule`), so the Node tests run the very modules the browser tests do.
 */
import { fileURLToPath } from 'node:url';
import { buildWorkerModule } from 'steadyframe/testing/node';

export type Fixture = 'motion' | 'faulty' | 'silent' | 'published' | 'stress' | 'needs-setup' | 'network-client' | 'seeded' | 'events' | 'game-state' | 'net-game' | 'net-game-client' | 'tables' | 'net-tables' | 'net-tables-client' | 'predict-game' | 'predict-client' | 'predict-tables' | 'predict-tables-client' | 'rewind-game';

/** Fixtures only the Node tests use (test/node/fixtures); the rest are the browser tests'. */
const NODE_ONLY: readonly Fixture[] = ['needs-setup', 'network-client', 'seeded', 'events', 'game-state', 'net-game', 'net-game-client', 'tables', 'net-tables', 'net-tables-client', 'predict-game', 'predict-client', 'predict-tables', 'predict-tables-client', 'rewind-game'];

const built = new Map<Fixture, Promise<string>>();

/** The fixture's module path, bundled for Node. */
export function nodeFixture(name: Fixture): Promise<string> {
  let module = built.get(name);
  if (module === undefined) {
    const dir = NODE_ONLY.includes(name) ? '../fixtures' : '../../browser/fixtures';
    module = buildWorkerModule(fileURLToPath(new URL(`${dir}/${name}.worker.ts`, import.meta.url)));
    built.set(name, module);
  }
  return module;
}

/** Polls until `predicate` holds; fails with `what` after `timeoutMs` of real time (a hang guard, not a timing check). */
export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
