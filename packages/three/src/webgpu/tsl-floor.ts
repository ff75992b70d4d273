/**
 * The oldest three.js whose TSL has what `@steadyframe/three/webgpu` uses, and the check that says so at set-up.
 * The package's peer range (>= 0.163) is the WebGL path's; the WebGPU path needs more:
 *
 * ```text
 *   r163 .. r166   no `three/tsl` or `three/webgpu` entry: the bundler fails on the import ('three/tsl' not exported)
 *   r167           the entries, but no `Fn` (then `tslFn`) and no `select` (then `cond`): this check throws
 *   r168 ..        every name below, and `Fn(builder => ...)` called with the builder (checked in r168-r171, r187)
 * ```
 *
 * Found by reading each release's `three/tsl` entry (its `export { ... }` list) and `TSLCore.js`/`ShaderNode.js`
 * from the npm tarballs; the drawing itself is tested on the catalog's three (r187).
 */
import { REVISION } from 'three';

/** The first three.js release (its REVISION) whose `three/tsl` exports every name `TSL_NAMES` lists. */
export const TSL_FLOOR = 168;

/** What `instance-node.ts` takes from `three/tsl`. */
export const TSL_NAMES = ['cross', 'dot', 'floor', 'Fn', 'instancedBufferAttribute', 'instanceIndex', 'length', 'mix', 'normalLocal', 'positionLocal', 'select', 'sin', 'cos', 'storage', 'tangentLocal', 'uint', 'uniform', 'vec3', 'vec4'] as const;

/** The names of `TSL_NAMES` a `three/tsl` module lacks (none on r168 and newer). */
export function missingTsl(tsl: object): string[] {
  return TSL_NAMES.filter((name) => typeof (tsl as Record<string, unknown>)[name] !== 'function' && typeof (tsl as Record<string, unknown>)[name] !== 'object');
}

/** Throws, naming the release needed, when `tsl` (the `three/tsl` module) lacks any of them. */
export function requireTsl(tsl: object): void {
  const missing = missingTsl(tsl);
  if (missing.length > 0) {
    throw new Error(`@steadyframe/three/webgpu: needs three r${TSL_FLOOR} or newer (its TSL lacks ${missing.join(', ')}); this is three r${REVISION}: upgrade three, or use @steadyframe/three on WebGLRenderer`);
  }
}
