import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';
// @ts-expect-error: a plain .mjs helper of the scripts; it has no type declarations.
import { watchStalls } from './scripts/runner-stalls.mjs';
// @ts-expect-error: as above.
import { TurnsSequencer } from './scripts/test-order.mjs';

// the runner's own event-loop stalls, printed after `npm test`'s summary (scripts/runner-stalls.mjs)
watchStalls();

export default defineConfig({
  // the Node workers take one e2e file, then the Node tests, then the other e2e files (scripts/test-order.mjs)
  test: { projects, sequence: { sequencer: TurnsSequencer } },
});
