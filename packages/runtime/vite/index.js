// `steadyframe/vite`: the Vite plugin that makes a page cross-origin isolated (SharedArrayBuffer needs it) in
// Vite's dev server and in `vite preview`, on every response. Plain JavaScript on purpose: Vite loads a
// vite.config.ts by bundling it but leaves packages to Node, which runs no TypeScript (types: index.d.ts).
//
//   // vite.config.ts
//   import { defineConfig } from 'vite';
//   import { crossOriginIsolation } from 'steadyframe/vite';
//   export default defineConfig({ plugins: [crossOriginIsolation()] });
//
// Why not `server.headers` / `preview.headers`: Vite sends those on full responses only. A revalidation answered
// `304 Not Modified` goes out without them, and WebKit applies the embedder policy to that response, so a worker
// script fetched again (a second `new Worker` of the same URL) fails to load every other time. This plugin sets
// the headers before any of Vite's handlers run, so every response has them, 304s included.

/** The two headers that make a page cross-origin isolated. */
export const ISOLATION_HEADERS = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
});

const POLICIES = ['require-corp', 'credentialless'];

/** The Vite plugin: COOP and COEP on every response of the dev server and of `vite preview`. */
export function crossOriginIsolation(options = {}) {
  const embedderPolicy = options.embedderPolicy ?? 'require-corp';
  if (!POLICIES.includes(embedderPolicy)) {
    throw new TypeError(`steadyframe: crossOriginIsolation({ embedderPolicy }) takes 'require-corp' or 'credentialless'; got ${String(embedderPolicy)}`);
  }
  const headers = Object.entries({ ...ISOLATION_HEADERS, 'Cross-Origin-Embedder-Policy': embedderPolicy });
  const isolate = (_request, response, next) => {
    for (const [name, value] of headers) response.setHeader(name, value);
    next();
  };
  // added in the hook itself (not in a returned post hook), so it runs before Vite's own handlers
  const install = (server) => void server.middlewares.use(isolate);
  return {
    name: 'steadyframe:cross-origin-isolation',
    configureServer: install,
    configurePreviewServer: install,
  };
}
