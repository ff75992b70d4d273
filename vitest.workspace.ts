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

export const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'node',
      environment: 'node',
      include: ['packages/*/test/node/**/*.test.ts'],
    },
  },
  ...(wantsBrowser
    ? [
        {
          server: { headers: isolationHeaders },
          define: {
            // acquires in the swap stress test; raise it for a long soak: STEADYFRAME_STRESS_ACQUIRES=10000000
            __STRESS_ACQUIRES__: String(Number(process.env.STEADYFRAME_STRESS_ACQUIRES ?? 100_000)),
          },
          test: {
            name: 'browser',
            include: ['packages/*/test/browser/**/*.test.ts'],
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
        } satisfies TestProjectInlineConfiguration,
      ]
    : []),
];
