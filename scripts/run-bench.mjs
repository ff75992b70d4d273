// `npm run bench`: sets up a fresh machine like `npm test` does (pnpm, dependencies, Chromium), then runs the
// benchmark suite (scripts/bench.mjs). See docs/benchmarks.md for what it measures.
import { ensureChromium, installDependencies } from './bootstrap.mjs';

installDependencies();
ensureChromium();
await import('./bench.mjs');
