/** The shared transport, worker side: the page's SharedArrayBuffer and input ring, read and written in place. */
import { InputReader } from '../core/input-ring.ts';
import { createSharedViews } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { browserHost } from './browser-host.ts';
import type { WorkerTransport } from './transport.ts';

export function connectSharedTransport<S extends Schema>(
  schema: S,
  buffer: SharedArrayBuffer,
  capacity: number,
  input: SharedArrayBuffer | undefined,
  memory?: WebAssembly.Memory,
): WorkerTransport<S> {
  const reader = input === undefined ? null : new InputReader(input);
  return {
    kind: 'shared',
    // the same memory as `buffer`; laid out through the WebAssembly.Memory when there is one, so the publishes
    // can copy with memory.copy
    views: createSharedViews(memory?.buffer ?? buffer, schema, capacity),
    memory: memory ?? null,
    input: reader,
    // the page's own writer counts what the shared ring refuses
    inputRejected: () => 0,
    stateBuffers: () => 0,
    defaultHost: browserHost,
    // the page reads the buffer itself: nothing to send
    published: () => {},
    restamped: () => {},
    headerChanged: () => {},
    wake: () => {},
  };
}
