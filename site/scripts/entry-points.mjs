// The public entry points: each package's published exports map, import specifier -> source file. The runtime's
// `testing` entries are test-only and not published. Read by the API reference (api.mjs) and the rot check
// (rot.mjs); site/test/rot.test.ts checks this list against the packages' package.json.
export const ENTRY_POINTS = [
  { specifier: 'steadyframe', file: 'packages/runtime/src/index.ts' },
  { specifier: 'steadyframe/worker', file: 'packages/runtime/src/worker/index.ts' },
  { specifier: 'steadyframe/render-worker', file: 'packages/runtime/src/render-worker/index.ts' },
  { specifier: 'steadyframe/node', file: 'packages/runtime/src/node/index.ts' },
  { specifier: 'steadyframe/network', file: 'packages/runtime/src/net/index.ts' },
  { specifier: 'steadyframe/adapter', file: 'packages/runtime/src/adapter/index.ts' },
  { specifier: 'steadyframe/vite', file: 'packages/runtime/vite/index.d.ts' },
  { specifier: '@steadyframe/three', file: 'packages/three/src/index.ts' },
  { specifier: '@steadyframe/three/webgpu', file: 'packages/three/src/webgpu/index.ts' },
  { specifier: '@steadyframe/pixi', file: 'packages/pixi/src/index.ts' },
  { specifier: '@steadyframe/rapier', file: 'packages/rapier/src/index.ts' },
  { specifier: '@steadyframe/rapier/2d', file: 'packages/rapier/src/2d.ts' },
  { specifier: '@steadyframe/react-three-fiber', file: 'packages/react-three-fiber/src/index.ts' },
  { specifier: '@steadyframe/react-three-fiber/webgpu', file: 'packages/react-three-fiber/src/webgpu.ts' },
  { specifier: '@steadyframe/phaser', file: 'packages/phaser/src/index.ts' },
  { specifier: '@steadyframe/babylon', file: 'packages/babylon/src/index.ts' },
  { specifier: '@steadyframe/colyseus', file: 'packages/colyseus/src/index.ts' },
  { specifier: '@steadyframe/colyseus/client', file: 'packages/colyseus/src/client/index.ts' },
];
