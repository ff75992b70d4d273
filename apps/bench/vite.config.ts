import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// COOP + COEP on every response, 304s included: the page is cross-origin isolated, which SharedArrayBuffer needs
import { crossOriginIsolation } from 'steadyframe/vite';

// scripts/bench.mjs builds this app and serves it with `vite preview` on a free port of its own choosing; the
// ports here are `npm run bench:page`'s (not the demo's 5173 that `npm start` takes)
export default defineConfig({
  // React's JSX for the r3f-port suite's scenes (src/r3f/*.tsx): in a build the plugin only sets the JSX transform
  plugins: [react(), crossOriginIsolation()],
  server: { port: 5176, host: '127.0.0.1' },
  preview: { port: 4176, host: '127.0.0.1' },
  worker: { format: 'es' },
  build: { target: 'es2022' },
});
