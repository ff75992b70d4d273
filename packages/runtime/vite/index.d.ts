/**
 * steadyframe/vite: the Vite plugin that serves every response cross-origin isolated, and the two headers.
 *
 * @module steadyframe/vite
 */
import type { Plugin } from 'vite';

/** The two headers that make a page cross-origin isolated. */
export declare const ISOLATION_HEADERS: Readonly<{
  'Cross-Origin-Opener-Policy': 'same-origin';
  'Cross-Origin-Embedder-Policy': 'require-corp';
}>;

export interface CrossOriginIsolationOptions {
  /**
   * The embedder policy: 'require-corp' (default; every engine) or 'credentialless' (Chromium and Firefox: lets
   * cross-origin resources without credentials load without a Cross-Origin-Resource-Policy header).
   */
  readonly embedderPolicy?: 'require-corp' | 'credentialless';
}

/**
 * The Vite plugin: `Cross-Origin-Opener-Policy` and `Cross-Origin-Embedder-Policy` on every response of the dev
 * server and of `vite preview`, revalidations (304) included, which `server.headers` / `preview.headers` miss.
 */
export declare function crossOriginIsolation(options?: CrossOriginIsolationOptions): Plugin;
