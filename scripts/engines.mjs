// The three browser engines the tests run in, where each comes from, and how each is started. We never
// download a browser: each engine is a Debian package (or a binary named by an environment variable).
//   - Chromium: Debian's `chromium`, driven by playwright with `executablePath`, headless.
//   - Firefox: Debian's `firefox-esr`, driven by puppeteer-core over WebDriver BiDi (Firefox speaks it itself,
//     so no geckodriver). Playwright's own Firefox support wants a newer Firefox than the ESR.
//   - WebKit: WebKitGTK's `WebKitWebDriver` and `MiniBrowser` (Debian's `webkit2gtk-driver`), driven by
//     webdriverio over WebDriver classic. Run as it ships, WebKitGTK has no SharedArrayBuffer even on an
//     isolated page (Safari has it there); `JSC_useSharedArrayBuffer=1` turns it on, as Safari runs.
// Firefox and MiniBrowser run headful in a private Xvfb display: headless Firefox has no WebGL, and MiniBrowser
// has no headless mode.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';

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

/**
 * The launch arguments of a Chromium that exposes WebGPU headless: Linux Chromium keeps WebGPU behind
 * `--enable-unsafe-webgpu`, and with it a machine without a GPU gets Dawn's SwiftShader adapter (Vulkan on
 * the CPU, `isFallbackAdapter` true). Without the flag requestAdapter() answers null. `node
 * scripts/probe-webgpu.mjs` tries this and the other flags (docs/webgpu.md has its findings).
 */
export const WEBGPU_CHROMIUM_ARGS = [...CHROMIUM_ARGS, '--enable-unsafe-webgpu'];

/**
 * A Chromium whose WebGPU canvases present: ANGLE on Vulkan beside Dawn's Vulkan (both SwiftShader here), so the
 * compositor and WebGPU share the swap chain's images. It has no WebGL 2 (docs/webgpu.md): only the tests of an
 * engine that presents a WebGPU canvas whatever it draws into (Babylon's WebGPUEngine does from its first frame)
 * run in it.
 */
export const WEBGPU_PRESENT_CHROMIUM_ARGS = [...WEBGPU_CHROMIUM_ARGS, '--use-angle=vulkan', '--enable-features=Vulkan', '--use-vulkan=swiftshader'];

/** The Firefox executable (FIREFOX_PATH, else Debian's firefox-esr), or null. */
export function findFirefox() {
  return firstExisting(process.env.FIREFOX_PATH, ['/usr/bin/firefox-esr', '/usr/bin/firefox']);
}

/** WebKitGTK's driver and browser (WEBKIT_DRIVER_PATH, WEBKIT_BROWSER_PATH, else Debian's), or null. */
export function findWebKit() {
  const driver = firstExisting(process.env.WEBKIT_DRIVER_PATH, ['/usr/bin/WebKitWebDriver']);
  const browser = firstExisting(process.env.WEBKIT_BROWSER_PATH, libFolders().map((lib) => `${lib}/webkit2gtk-4.1/MiniBrowser`));
  return driver === null || browser === null ? null : { driver, browser };
}

/** Xvfb, which Firefox and MiniBrowser draw into, or null. */
export function findXvfb() {
  return firstExisting(process.env.XVFB_PATH, ['/usr/bin/Xvfb']);
}

/** The engines, their Debian packages, and whether each is here. Chromium is required; the others are skipped. */
export const ENGINES = [
  { name: 'chromium', label: 'Chromium', packages: ['chromium'], present: () => findChromium() !== null },
  { name: 'firefox', label: 'Firefox', packages: ['firefox-esr', 'xvfb'], present: () => findFirefox() !== null && findXvfb() !== null },
  { name: 'webkit', label: 'WebKit', packages: ['webkit2gtk-driver', 'xvfb'], present: () => findWebKit() !== null && findXvfb() !== null },
];

/**
 * The engines the browser tests run in: those present and wanted. STEADYFRAME_ENGINES (a comma list, such as
 * `chromium` or `chromium,firefox`) narrows them; unset, every engine that is here runs.
 */
export function enginesToRun() {
  const names = wantedEngines();
  return ENGINES.filter((engine) => names.includes(engine.name) && engine.present()).map((engine) => engine.name);
}

/**
 * Installs the missing engines' Debian packages when we are root on Debian (one `apt-get update`, then one
 * package a call), then says which engines will run. `names`: the engines wanted (default: STEADYFRAME_ENGINES,
 * else all). A missing Chromium ends the run with what to do; a missing Firefox or WebKit is skipped with a line
 * that says why. Returns the engines that will run.
 */
export function ensureEngines(names = wantedEngines()) {
  const wanted = ENGINES.filter((engine) => names.includes(engine.name));
  const missing = wanted.filter((engine) => !engine.present());
  if (missing.length > 0 && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    const packages = [...new Set(missing.flatMap((engine) => engine.packages))];
    console.log(`steadyframe: installing Debian's ${packages.join(', ')} for the browser tests (apt-get install -y)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    // one package a call: a package this release lacks must not keep the others out
    if (update.status === 0) for (const name of packages) spawnSync('apt-get', ['install', '-y', '-qq', name], { stdio: 'inherit', env });
  }
  if (names.includes('chromium') && findChromium() === null) {
    console.error(MISSING_CHROMIUM_MESSAGE);
    process.exit(1);
  }
  for (const engine of ENGINES) {
    if (!names.includes(engine.name)) {
      if (process.env.STEADYFRAME_ENGINES) console.log(`steadyframe: ${engine.label} skipped: STEADYFRAME_ENGINES leaves it out`);
    } else if (!engine.present()) console.log(`steadyframe: ${engine.label} skipped: it is not installed and could not be (Debian: apt-get install -y ${engine.packages.join(' ')})`);
  }
  return wanted.filter((engine) => engine.present()).map((engine) => engine.name);
}

/** The engines STEADYFRAME_ENGINES names (a comma list), or all; an unknown name is an error. */
function wantedEngines() {
  const names = process.env.STEADYFRAME_ENGINES?.split(',').map((name) => name.trim()).filter(Boolean);
  if (names === undefined) return ENGINES.map((engine) => engine.name);
  const unknown = names.filter((name) => !ENGINES.some((engine) => engine.name === name));
  if (unknown.length > 0) throw new Error(`steadyframe: STEADYFRAME_ENGINES names ${unknown.join(', ')}; the engines are ${ENGINES.map((e) => e.name).join(', ')}`);
  return names;
}

let display = null;

/**
 * A private Xvfb display for headful browsers, started once a process and stopped when it exits or dies. Xvfb picks a
 * free display number itself (`-displayfd`), so parallel runs never share or collide.
 */
export function xvfbDisplay() {
  display ??= new Promise((resolve, reject) => {
    const xvfb = findXvfb();
    if (xvfb === null) return reject(new Error('steadyframe: Firefox and WebKit draw into Xvfb, which is not installed (apt-get install -y xvfb)'));
    const server = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let said = '';
    let errors = '';
    server.stderr.on('data', (chunk) => (errors += chunk));
    server.stdio[3].on('data', (chunk) => {
      said += chunk;
      if (said.includes('\n')) resolve(`:${said.trim()}`);
    });
    server.on('exit', (code) => reject(new Error(`steadyframe: Xvfb exited (${code}) before it opened a display: ${errors.trim()}`)));
    server.unref();
    server.stdio[3].unref?.();
    server.stderr.unref?.();
    process.on('exit', () => server.kill());
    // and if this process dies without an 'exit' (a Vitest worker ended by a signal left its Xvfb running): a
    // watcher of its own stops the server within a second of this process
    spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill ${server.pid} 2>/dev/null`], { stdio: 'ignore', detached: true }).unref();
  });
  return display;
}

/**
 * Firefox under Xvfb through puppeteer-core (WebDriver BiDi): the puppeteer Browser and its first page (the
 * window it opened with, or a new one).
 */
export async function launchFirefoxPage({ width = 1280, height = 900 } = {}) {
  const executablePath = findFirefox();
  if (executablePath === null) throw new Error('steadyframe: no Firefox found (apt-get install -y firefox-esr, or FIREFOX_PATH=...)');
  const env = { ...process.env, DISPLAY: await xvfbDisplay() };
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: false,
    env,
    args: [`--width=${width}`, `--height=${height}`],
    defaultViewport: null,
    // no network events: nothing here reads them, and puppeteer keeps an object per request with a listener
    // on the session (every request of a whole test run in one page), which made its close hold the test
    // runner's event loop 11 to 21 s after every CI run (a profile of the runner: puppeteer's listener removal)
    networkEnabled: false,
  });
  const [page = await browser.newPage()] = await browser.pages();
  return { browser, page };
}

/**
 * MiniBrowser under Xvfb through WebKitWebDriver and webdriverio (WebDriver classic): a webdriverio Browser
 * whose `close()` also stops the driver. `sharedArrayBuffer` starts it as Safari runs an isolated page;
 * without it, as WebKitGTK ships.
 */
export async function launchWebKit({ sharedArrayBuffer = false } = {}) {
  const webkit = findWebKit();
  if (webkit === null) throw new Error('steadyframe: no WebKitGTK found (apt-get install -y webkit2gtk-driver, or WEBKIT_DRIVER_PATH and WEBKIT_BROWSER_PATH)');
  const env = { ...process.env, DISPLAY: await xvfbDisplay() };
  delete env.JSC_useSharedArrayBuffer;
  if (sharedArrayBuffer) env.JSC_useSharedArrayBuffer = '1';
  const port = await freePort();
  // in a process group of its own, which MiniBrowser and its web and network processes join: a session whose
  // page crashed leaves them behind a killed driver, so the whole group is stopped
  const driver = spawn(webkit.driver, [`--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'], env, detached: true });
  let driverErrors = '';
  driver.stderr.on('data', (chunk) => (driverErrors += chunk));
  const exited = new Promise((resolve) => driver.on('exit', resolve));
  const stop = () => {
    try {
      process.kill(-driver.pid, 'SIGTERM');
    } catch {
      // the group is gone already
    }
  };
  process.on('exit', stop);
  exited.then(() => process.off('exit', stop));
  try {
    await waitForPort(port, exited);
    const { remote } = await import('webdriverio');
    const browser = await remote({
      hostname: '127.0.0.1',
      port,
      logLevel: 'error',
      connectionRetryCount: 0,
      capabilities: {
        browserName: 'MiniBrowser',
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: webkit.browser, args: ['--automation'] },
      },
    });
    browser.close = async () => {
      // a session whose page crashed may never answer: the group is stopped after 5 s regardless
      await Promise.race([browser.deleteSession().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      stop();
      await exited;
    };
    return browser;
  } catch (error) {
    stop();
    throw new Error(`steadyframe: WebKit did not start: ${error instanceof Error ? error.message : String(error)} ${driverErrors.trim()}`);
  }
}

/** A port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, exited) {
  let gone = false;
  exited.then(() => (gone = true));
  for (let tries = 0; tries < 200 && !gone; tries++) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(gone ? 'WebKitWebDriver exited' : `WebKitWebDriver did not listen on port ${port}`);
}

function firstExisting(fromEnv, defaults) {
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return defaults.find((path) => existsSync(path)) ?? null;
}

function libFolders() {
  const folders = ['/usr/lib', '/usr/libexec'];
  for (const name of safeList('/usr/lib')) if (name.endsWith('-linux-gnu')) folders.unshift(`/usr/lib/${name}`);
  return folders;
}

function safeList(folder) {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
