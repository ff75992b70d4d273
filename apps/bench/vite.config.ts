import { defineConfig } from 'vite';

/** COOP + COEP make the page cross-origin isolated, which SharedArrayBuffer needs. */
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// scripts/bench.mjs builds this app and serves it with `vite preview` on a free port of its own choosing; the
// ports here are `npm run bench:page`'s (not the demo's 5173 that `npm start` takes)
export default defineConfig({
  server: { headers: isolationHeaders, port: 5176, host: '127.0.0.1' },
  preview: { headers: isolationHeaders, port: 4176, host: '127.0.0.1' },
  worker: { format: 'es' },
  build: { target: 'es2022' },
});
