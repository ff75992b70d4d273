import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';
// @ts-expect-error: a plain .mjs helper of the scripts; it has no type declarations.
import { watchStalls } from './scripts/runner-stalls.mjs';

// the runner's own event-loop stalls, printed after `npm test`'s summary (scripts/runner-stalls.mjs)
watchStalls();

export default defineConfig({
  test: { projects },
});
