// Where the browser for tests and screenshots comes from. We never download one: Debian's `chromium`
// package (or any Chromium named by CHROMIUM_PATH) is driven through playwright with `executablePath`.
import { existsSync } from 'node:fs';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** The Chromium executable to use, or null when there is none. */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return existsSync(DEFAULT_CHROMIUM) ? DEFAULT_CHROMIUM : null;
}

export const MISSING_CHROMIUM_MESSAGE = `steadyframe: no Chromium found.
  The browser tests drive a system Chromium; they never download one.
  Provide one of:
    - Debian/Ubuntu: apt-get install -y chromium     (installs ${DEFAULT_CHROMIUM}; \`npm test\` does this itself when run as root)
    - any Chromium or Chrome binary: CHROMIUM_PATH=/path/to/chromium npm test`;

/** Launch arguments: headless, and no QUIC (this network has no route for it). */
export const CHROMIUM_ARGS = ['--disable-quic', '--no-sandbox'];
