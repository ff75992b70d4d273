import { defineConfig } from 'vite';
// COOP + COEP on every response, 304s included: the page is cross-origin isolated, which SharedArrayBuffer needs
import { crossOriginIsolation } from 'steadyframe/vite';

export default defineConfig({
  plugins: [crossOriginIsolation()],
  server: { port: 5180, host: '127.0.0.1' },
  preview: { port: 4180, host: '127.0.0.1' },
  worker: { format: 'es' },
  // Phaser is one 1.4 MB module (minified): no chunk to split it into
  build: { target: 'es2022', chunkSizeWarningLimit: 2000 },
});
