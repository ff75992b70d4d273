import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// COOP + COEP on every response, 304s included: the page is cross-origin isolated, which SharedArrayBuffer needs
import { crossOriginIsolation } from 'steadyframe/vite';

export default defineConfig({
  plugins: [react(), crossOriginIsolation()],
  server: { port: 5178, host: '127.0.0.1' },
  preview: { port: 4178, host: '127.0.0.1' },
  worker: { format: 'es' },
  build: { target: 'es2022' },
});
