/** The shared transport, worker side: the page's SharedArrayBuffer, input ring and event ring, read and written in place. */
import type { SharedAttachConfig } from '../../contracts/remote.ts';
import type { WorkerTransport } from '../../contracts/transport.ts';
import { EventWriter } from '../../core/event-writer.ts';
import { InputReader } from '../../core/input-reader.ts';
import { createSharedViews } from '../../core/layout.ts';
import type { Schema } from '../../core/schema.ts';
import { SlotWriter } from '../../core/slot-writer.ts';

export function connectSharedWorker<S extends Schema>(schema: S, config: SharedAttachConfig): WorkerTransport<S> {
  const { buffer, memory, input, events } = config;
  if (!(buffer instanceof SharedArrayBuffer)) {
    throw new TypeError('steadyframe: the shared transport attaches with a SharedArrayBuffer; createRuntime() passes one');
  }
  // the same memory as `buffer`; laid out through the WebAssembly.Memory when there is one, so the publishes
  // can copy with memory.copy
  const views = createSharedViews<S>(memory?.buffer ?? buffer, schema, config.capacity);
  const eventWriter = events === undefined ? null : new EventWriter(events);
  return {
    kind: 'shared',
    views,
    input: input === undefined ? null : new InputReader(input),
    events: eventWriter,
    // each flip commits the tick's events under LOCK (event-ring.ts)
    writer: (world, now) => new SlotWriter(views, world, now, undefined, undefined, memory ?? null, eventWriter),
    // the worker sleeps on the doorbell in the shared buffer itself: the environment's Atomics waits serve
    host: (environment) => environment,
    // the page's own writer counts what the shared ring refuses
    inputRejected: () => 0,
    stateBuffers: () => 0,
    // the page reads the buffer itself: nothing to send
    published: () => {},
    restamped: () => {},
    headerChanged: () => {},
    wake: () => {},
  };
}
