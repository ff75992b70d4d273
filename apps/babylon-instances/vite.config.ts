import { defineConfig } from 'vite';
// COOP + COEP on every response, 304s included: the page is cross-origin isolated, which SharedArrayBuffer needs
import { crossOriginIsolation } from 'steadyframe/vite';

export default defineConfig({
  plugins: [crossOriginIsolation()],
  server: { port: 5181, host: '127.0.0.1' },
  preview: { port: 4181, host: '127.0.0.1' },
  worker: { format: 'es' },
  // Babylon's engines and materials are one large chunk (deep imports: only what the page uses)
  build: { target: 'es2022', chunkSizeWarningLimit: 3000 },
});
