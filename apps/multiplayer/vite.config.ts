import { defineConfig } from 'vite';

/** COOP + COEP make the page cross-origin isolated, which SharedArrayBuffer needs. */
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  server: { headers: isolationHeaders, port: 5177, host: '127.0.0.1' },
  preview: { headers: isolationHeaders, port: 4177, host: '127.0.0.1' },
  worker: { format: 'es' },
  build: { target: 'es2022' },
});
