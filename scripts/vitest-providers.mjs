// The Vitest browser providers for Firefox and WebKit (Chromium uses @vitest/browser-playwright). Each opens
// one page in its engine (scripts/engines.mjs) and points it at Vitest's tester page; test files then run one
// after another in it. They offer no commands, no module mocking and no CDP: our browser tests use none,
// except those marked Chromium-only.
import { defineBrowserProvider } from '@vitest/browser';
import { launchFirefoxPage, launchWebKit } from './engines.mjs';

/** Firefox (Debian's firefox-esr) over WebDriver BiDi through puppeteer-core. */
export function firefox() {
  return defineBrowserProvider({
    name: 'steadyframe-firefox',
    supportedBrowser: ['firefox'],
    options: {},
    providerFactory: () =>
      new OnePageProvider('steadyframe-firefox', async () => {
        const { browser, page } = await launchFirefoxPage();
        return {
          goto: (url) => page.goto(url, { timeout: 0 }).then(() => undefined),
          close: () => browser.close(),
        };
      }),
  });
}

/**
 * WebKitGTK (MiniBrowser) through WebKitWebDriver and webdriverio. `sharedArrayBuffer: true` starts it as
 * Safari runs an isolated page; false, as WebKitGTK ships (no SharedArrayBuffer: the message transport).
 */
export function webkit({ sharedArrayBuffer }) {
  const name = sharedArrayBuffer ? 'steadyframe-webkit-sab' : 'steadyframe-webkit';
  return defineBrowserProvider({
    name,
    supportedBrowser: ['webkit'],
    options: { sharedArrayBuffer },
    providerFactory: () =>
      new OnePageProvider(name, async () => {
        const browser = await launchWebKit({ sharedArrayBuffer });
        return { goto: (url) => browser.url(url).then(() => undefined), close: () => browser.close() };
      }),
  });
}

/** Vitest's provider contract over one browser page, opened on first use. */
class OnePageProvider {
  supportsParallelism = false;
  #open;
  #page = null;
  #closing = false;

  constructor(name, open) {
    this.name = name;
    this.#open = open;
  }

  getCommandsContext() {
    return {};
  }

  async openPage(_sessionId, url) {
    if (this.#closing) throw new Error(`[${this.name}] the provider was closed`);
    this.#page ??= this.#open();
    await (await this.#page).goto(url);
  }

  async close() {
    this.#closing = true;
    const page = this.#page;
    this.#page = null;
    if (page !== null) await (await page.catch(() => null))?.close();
  }
}
