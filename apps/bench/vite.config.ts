import { defineConfig } from 'vite';

/** COOP + COEP make the page cross-origin isolated, which SharedArrayBuffer needs. */
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// scripts/bench.mjs builds this app and serves it with `vite preview` on a free port of its own choosing
export default defineConfig({
  server: { headers: isolationHeaders, host: '127.0.0.1' },
  preview: { headers: isolationHeaders, host: '127.0.0.1' },
  worker: { format: 'es' },
  build: { target: 'es2022' },
});
