// The test projects. Vitest >= 4 does not read this file by itself; vitest.config.ts imports `projects`
// from it, so this stays the one place that lists them.
import { playwright } from '@vitest/browser-playwright';
import { configDefaults, type BrowserInstanceOption, type TestProjectInlineConfiguration } from 'vitest/config';
// @ts-expect-error: plain .mjs helpers shared with the scripts; they have no type declarations.
import { CHROMIUM_ARGS, enginesToRun, findChromium, MISSING_CHROMIUM_MESSAGE, WEBGPU_CHROMIUM_ARGS, WEBGPU_PRESENT_CHROMIUM_ARGS } from './scripts/engines.mjs';
// @ts-expect-error: as above.
import { firefox, webkit } from './scripts/vitest-providers.mjs';

// COOP + COEP on every response, 304s included: the page is cross-origin isolated, which SharedArrayBuffer needs
import { crossOriginIsolation, ISOLATION_HEADERS } from 'steadyframe/vite';

function chromium(): string {
  const path = findChromium() as string | null;
  if (path === null) throw new Error(MISSING_CHROMIUM_MESSAGE);
  return path;
}

const wantsBrowser = process.env.STEADYFRAME_SKIP_BROWSER !== '1';
/** The engines here and wanted (scripts/engines.mjs; STEADYFRAME_ENGINES narrows them). */
const engines: string[] = wantsBrowser ? enginesToRun() : [];

// what each instance provides its tests (`inject('engine')`): declared in packages/runtime/test/shared/engine.ts

/** The runtime's own browser tests; the adapters' (three.js, PixiJS) are the rest. */
const CORE = 'packages/runtime/test/';

/**
 * One instance of a browser project per engine. Every engine runs the runtime's tests; the adapters' run in
 * Chromium and Firefox (WebKit's share of a CI run is spent on the core, twice: site/reference/compatibility.md).
 * WebKit as it ships has no SharedArrayBuffer, so it runs the pages that use messages: the no-isolation
 * project, and on isolated pages only the test of what the runtime says there.
 */
function instances(project: string, include: string, isolated: boolean): BrowserInstanceOption[] {
  const all: BrowserInstanceOption[] = [];
  if (engines.includes('chromium')) {
    all.push({
      browser: 'chromium',
      provide: { engine: 'chromium', sharedArrayBuffer: true },
      provider: playwright({ launchOptions: { executablePath: chromium(), args: CHROMIUM_ARGS } }),
    });
  }
  if (engines.includes('firefox')) {
    all.push({ browser: 'firefox', provide: { engine: 'firefox', sharedArrayBuffer: true }, provider: firefox() });
  }
  if (engines.includes('webkit')) {
    const core = include.replace('packages/*/test/', `${CORE}`);
    all.push({
      browser: 'webkit',
      name: `${project} (webkit+sab)`,
      include: [core],
      provide: { engine: 'webkit', sharedArrayBuffer: true },
      provider: webkit({ sharedArrayBuffer: true }),
    });
    all.push({
      browser: 'webkit',
      include: isolated ? [`${CORE}browser/isolation-warning.test.ts`] : [core],
      provide: { engine: 'webkit', sharedArrayBuffer: false },
      provider: webkit({ sharedArrayBuffer: false }),
    });
  }
  return all;
}

/**
 * The WebGPU tests' one instance: Chromium with WebGPU on (WEBGPU_CHROMIUM_ARGS: Dawn's SwiftShader adapter on
 * a machine without a GPU; `node scripts/probe-webgpu.mjs` says what works here, docs/webgpu.md what it found).
 * Their renderers draw into render targets and read them back: presenting a WebGPU canvas loses the device in
 * this headless Chromium (docs/webgpu.md). Chromium only: Firefox ESR and WebKitGTK were not probed for WebGPU.
 */
function webgpuInstances(args: readonly string[] = WEBGPU_CHROMIUM_ARGS): BrowserInstanceOption[] {
  return [
    {
      browser: 'chromium',
      provide: { engine: 'chromium', sharedArrayBuffer: true },
      provider: playwright({ launchOptions: { executablePath: chromium(), args: [...args] } }),
    },
  ];
}

/**
 * Babylon.js's modules the tests and @steadyframe/babylon import (it has no barrel worth bundling whole: deep
 * imports, bundled together so that they share one copy of each module Babylon's side effects register on).
 */
const BABYLON_MODULES = [
  'Buffers/buffer.js',
  'Buffers/storageBuffer.js',
  'Cameras/camera.js',
  'Cameras/freeCamera.js',
  'Engines/constants.js',
  'Engines/engine.js',
  'Engines/nullEngine.js',
  'Engines/webgpuEngine.js',
  'Materials/materialPluginBase.js',
  'Materials/materialPluginManager.js',
  'Materials/shaderLanguage.js',
  'Materials/standardMaterial.js',
  'Materials/Textures/renderTargetTexture.js',
  'Maths/math.color.js',
  'Maths/math.vector.js',
  'Meshes/Builders/boxBuilder.js',
  'Meshes/Builders/planeBuilder.js',
  'Meshes/mesh.js',
  'Meshes/thinInstanceMesh.js',
  'scene.js',
].map((m) => `@babylonjs/core/${m}`);

/** A browser-mode project in every engine, its pages cross-origin isolated or not. */
function browserProject(name: string, include: string, isolated: boolean, only?: BrowserInstanceOption[]): TestProjectInlineConfiguration {
  return {
    // Vitest serves its tester pages itself, with `server.headers`; the plugin covers every other response
    server: { headers: isolated ? { ...ISOLATION_HEADERS } : {} },
    plugins: isolated ? [crossOriginIsolation()] : [],
    // bundled once up front: a dependency discovered mid-run makes Vite reload the page under a running test
    // (they are root devDependencies so that they resolve from here)
    optimizeDeps: { include: ['three', 'three/webgpu', 'three/tsl', 'comlink', 'pixi.js', 'react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom/client', '@react-three/fiber', 'phaser', ...BABYLON_MODULES] },
    define: {
      // the swap stress test; raise them for a long soak: STEADYFRAME_STRESS_ACQUIRES=10000000
      __STRESS_ACQUIRES__: String(Number(process.env.STEADYFRAME_STRESS_ACQUIRES ?? 100_000)),
      __STRESS_CAPACITY__: String(Number(process.env.STEADYFRAME_STRESS_CAPACITY ?? 2048)),
      __STRESS_TICK_RATE__: String(Number(process.env.STEADYFRAME_STRESS_TICK_RATE ?? 20_000)),
      // the frame clock's long run (frame-time.test.ts); 0: 10 s in Chromium, 6 s elsewhere
      __SOAK_SECONDS__: String(Number(process.env.STEADYFRAME_SOAK_SECONDS ?? 0)),
    },
    test: {
      name,
      include: [include],
      testTimeout: 60_000,
      // the group's count (NODE_WORKERS); each engine still runs one file at a time (its timing tests alone in it)
      maxWorkers: NODE_WORKERS,
      browser: {
        enabled: true,
        headless: true,
        fileParallelism: false,
        screenshotFailures: false,
        instances: only ?? instances(name, include, isolated),
      },
    },
  };
}

/**
 * Node workers beside the browser projects: two, so that the Node tests run while an e2e file runs (the e2e files
 * take turns: scripts/e2e-turns.mjs, scripts/test-order.mjs). Every project of a group has the same count.
 */
const NODE_WORKERS = 2;

export const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'node',
      environment: 'node',
      maxWorkers: NODE_WORKERS,
      // a hang guard, as the other projects': a seeded 60,000-frame playout run that takes 1.5 s took 7.2 s beside
      // the e2e files in a clean-clone run, past Vitest's default of 5 s
      testTimeout: 60_000,
      include: ['packages/*/test/node/**/*.test.ts', 'apps/*/test/node/**/*.test.ts', 'site/test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, 'site/test/build.test.ts'],
    },
  },
  {
    // the docs site built (TypeDoc, VitePress) and its links checked: a minute of both cores, so it runs after
    // every other project (groupOrder 1), where it slows no timing test (`npm run docs:build` is the same build)
    test: {
      name: 'docs',
      environment: 'node',
      include: ['site/test/build.test.ts'],
      maxWorkers: 1,
      sequence: { groupOrder: 1 },
    },
  },
  // `npm run bench:net` only: a measurement, not a test (it writes docs/net-scale.md)
  ...(process.env.STEADYFRAME_BENCH_NET === '1'
    ? [{ test: { name: 'bench-net', environment: 'node', maxWorkers: NODE_WORKERS, include: ['packages/*/bench/**/*.measure.ts'], testTimeout: 300_000 } } satisfies TestProjectInlineConfiguration]
    : []),
  ...(engines.length > 0
    ? [
        {
          test: {
            // the built demo in headless Chromium (playwright drives it; vite builds and previews it)
            name: 'e2e',
            environment: 'node',
            include: ['apps/*/test/**/*.e2e.test.ts', 'packages/*/test/e2e/**/*.e2e.test.ts'],
            exclude: [...configDefaults.exclude, 'apps/multiplayer/test/**'],
            // one file at a time, the Node tests' files beside it: each takes a turn (scripts/e2e-turns.mjs)
            maxWorkers: NODE_WORKERS,
            globalSetup: ['scripts/e2e-turns.mjs'],
            setupFiles: ['scripts/e2e-turn.setup.mjs'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        } satisfies TestProjectInlineConfiguration,
        {
          test: {
            // the multiplayer example's pages over shaped links: after every other project and the docs build
            // (groupOrder 2), on a machine no other test loads. Their bounds are on frames a page draws every
            // 16 ms and a server in the test's own process: a clean-clone CI run with the browser projects
            // beside them saw 4 frames back where 3 are allowed and a frame's move 2.6% past its bound
            name: 'e2e-multiplayer',
            environment: 'node',
            include: ['apps/multiplayer/test/**/*.e2e.test.ts'],
            maxWorkers: 1,
            testTimeout: 60_000,
            hookTimeout: 120_000,
            sequence: { groupOrder: 2 },
          },
        } satisfies TestProjectInlineConfiguration,
        browserProject('browser', 'packages/*/test/browser/**/*.test.{ts,tsx}', true),
        // served without COOP/COEP: no SharedArrayBuffer, so the runtime must fall back to messages
        browserProject('browser-plain', 'packages/*/test/browser-plain/**/*.test.ts', false),
        // three.js's WebGPURenderer on a real WebGPU device (Chromium only)
        ...(engines.includes('chromium') ? [browserProject('browser-webgpu', 'packages/*/test/browser-webgpu/**/*.test.{ts,tsx}', true, webgpuInstances())] : []),
        // an engine that presents its WebGPU canvas (Babylon's WebGPUEngine) in the Chromium where that works
        // (ANGLE on Vulkan: no WebGL 2 there; WEBGPU_PRESENT_CHROMIUM_ARGS, docs/webgpu.md)
        ...(engines.includes('chromium')
          ? [browserProject('browser-webgpu-present', 'packages/*/test/browser-webgpu-present/**/*.test.ts', true, webgpuInstances(WEBGPU_PRESENT_CHROMIUM_ARGS))]
          : []),
      ]
    : []),
];
