/**
 * WebAssembly's bulk `memory.copy` over a memory the caller already has (the runtime's shared buffer is a
 * shared WebAssembly.Memory where the blend kernels run): a memmove that a JS engine may do faster than
 * `TypedArray.prototype.copyWithin` on shared memory, and with less overhead per call (the publish suite in
 * apps/bench measures both; ARCHITECTURE.md, "How it copies"). The module, as WAT (17 bytes of code):
 *
 * ```wat
 * (module
 *   (import "e" "m" (memory 0 65536 shared))          ;; or (memory 0), for an unshared memory
 *   (func (export "copy") (param $to i32) (param $from i32) (param $bytes i32)
 *     local.get $to  local.get $from  local.get $bytes  memory.copy))
 * ```
 *
 * The import's limits (0 pages up, at most 65536) accept a memory of any size, so one compiled module per
 * kind (shared or not) serves every buffer of the realm.
 */
import { uleb } from './wasm-encoding.ts';

/** Copies `bytes` bytes from byte `from` to byte `to` of the memory (the two ranges may overlap). */
export type MemoryCopy = (to: number, from: number, bytes: number) => void;

function moduleBytes(shared: boolean): Uint8Array<ArrayBuffer> {
  // limits: 0x03 = a maximum and shared; 0x00 = a minimum only
  const limits = shared ? [0x03, ...uleb(0), ...uleb(65_536)] : [0x00, ...uleb(0)];
  const imported = [1, 0x65, 1, 0x6d, 0x02, ...limits]; // "e" "m", a memory
  const body = [0, 0x20, 0, 0x20, 1, 0x20, 2, 0xfc, 0x0a, 0, 0, 0x0b]; // no locals; the three params; memory.copy 0 0
  const name = [0x63, 0x6f, 0x70, 0x79]; // "copy"
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...[0x01, 7, 1, 0x60, 3, 0x7f, 0x7f, 0x7f, 0], // type 0: (i32 i32 i32) -> ()
    ...[0x02, imported.length + 1, 1, ...imported],
    ...[0x03, 2, 1, 0], // function 0 has type 0
    ...[0x07, name.length + 4, 1, name.length, ...name, 0x00, 0], // export "copy" = function 0
    ...[0x0a, body.length + 2, 1, body.length, ...body],
  ]);
}

/** Compiled once per realm and kind; null where the engine lacks bulk memory (or WebAssembly). */
const modules: { shared?: WebAssembly.Module | null; unshared?: WebAssembly.Module | null } = {};

function compiled(shared: boolean): WebAssembly.Module | null {
  const key = shared ? 'shared' : 'unshared';
  let module = modules[key];
  if (module === undefined) {
    const bytes = moduleBytes(shared);
    module = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    modules[key] = module;
  }
  return module;
}

/** `memory.copy` over `memory`, or null where the engine cannot run it. Compiles (once) and instantiates: set-up only. */
export function createMemoryCopy(memory: WebAssembly.Memory): MemoryCopy | null {
  const shared = typeof SharedArrayBuffer === 'function' && memory.buffer instanceof SharedArrayBuffer;
  const module = compiled(shared);
  if (module === null) return null;
  try {
    return new WebAssembly.Instance(module, { e: { m: memory } }).exports.copy as MemoryCopy;
  } catch {
    return null; // a memory the import does not accept (larger than 4 GiB): the caller falls back
  }
}
