// The test projects. Vitest >= 4 does not read this file by itself; vitest.config.ts imports `projects`
// from it, so this stays the one place that lists them.
import { playwright } from '@vitest/browser-playwright';
import type { TestProjectInlineConfiguration } from 'vitest/config';
// @ts-expect-error: plain .mjs helper shared with the scripts; it has no type declarations.
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from './scripts/chromium.mjs';

/** COOP + COEP make the page cross-origin isolated, which SharedArrayBuffer needs. */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

function chromium(): string {
  const path = findChromium() as string | null;
  if (path === null) throw new Error(MISSING_CHROMIUM_MESSAGE);
  return path;
}

const wantsBrowser = process.env.STEADYFRAME_SKIP_BROWSER !== '1';

/** A browser-mode project in headless Chromium; `headers` decide whether its pages are cross-origin isolated. */
function browserProject(name: string, include: string, headers: Record<string, string>): TestProjectInlineConfiguration {
  return {
    server: { headers },
    // bundled once up front: a dependency discovered mid-run makes Vite reload the page under a running test
    // (they are root devDependencies so that they resolve from here)
    optimizeDeps: { include: ['three', 'comlink', 'pixi.js'] },
    define: {
      // the swap stress test; raise them for a long soak: STEADYFRAME_STRESS_ACQUIRES=10000000
      __STRESS_ACQUIRES__: String(Number(process.env.STEADYFRAME_STRESS_ACQUIRES ?? 100_000)),
      __STRESS_CAPACITY__: String(Number(process.env.STEADYFRAME_STRESS_CAPACITY ?? 2048)),
      __STRESS_TICK_RATE__: String(Number(process.env.STEADYFRAME_STRESS_TICK_RATE ?? 20_000)),
    },
    test: {
      name,
      include: [include],
      testTimeout: 60_000,
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        provider: playwright({
          launchOptions: { executablePath: chromium(), args: CHROMIUM_ARGS },
        }),
        instances: [{ browser: 'chromium' as const }],
      },
    },
  };
}

export const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'node',
      environment: 'node',
      include: ['packages/*/test/node/**/*.test.ts', 'apps/*/test/node/**/*.test.ts'],
    },
  },
  // `npm run bench:net` only: a measurement, not a test (it writes docs/net-scale.md)
  ...(process.env.STEADYFRAME_BENCH_NET === '1'
    ? [{ test: { name: 'bench-net', environment: 'node', include: ['packages/*/bench/**/*.measure.ts'], testTimeout: 300_000 } } satisfies TestProjectInlineConfiguration]
    : []),
  ...(wantsBrowser
    ? [
        {
          test: {
            // the built demo in headless Chromium (playwright drives it; vite builds and previews it)
            name: 'e2e',
            environment: 'node',
            include: ['apps/*/test/**/*.e2e.test.ts', 'packages/*/test/e2e/**/*.e2e.test.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        } satisfies TestProjectInlineConfiguration,
        browserProject('browser', 'packages/*/test/browser/**/*.test.ts', isolationHeaders),
        // served without COOP/COEP: no SharedArrayBuffer, so the runtime must fall back to messages
        browserProject('browser-plain', 'packages/*/test/browser-plain/**/*.test.ts', {}),
      ]
    : []),
];
