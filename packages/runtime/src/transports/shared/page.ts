/**
 * The shared transport, page side: one SharedArrayBuffer laid out by layout.ts (read under LOCK by a
 * `SlotReader`), NEXT_FRAME written under its sequence lock, and the input ring in a SharedArrayBuffer of its
 * own. With the wasm SIMD kernels the buffer is a shared WebAssembly.Memory's, with a scratch block after the
 * layout for the kernels' output, so the page blends straight out of the shared states.
 */
import type { PageTransport, PageTransportContext, TransportKernels } from '../../contracts/transport.ts';
import type { SharedAttachConfig } from '../../contracts/remote.ts';
import { readCovered, writeNextFrame } from '../../core/doorbell.ts';
import { allocateEventRing } from '../../core/event-ring.ts';
import { EventReader } from '../../core/event-reader.ts';
import { allocateInputRing } from '../../core/input-ring.ts';
import { InputWriter } from '../../core/input-writer.ts';
import { allocateSharedBuffer, createSharedViews, fieldViews, initStateBuffer, type Layout } from '../../core/layout.ts';
import type { Schema } from '../../core/schema.ts';
import { createBlendKernels, simdSupported } from '../../core/simd-kernel.ts';
import { SlotReader } from '../../core/slot-reader.ts';

/** Makes the state buffer (over a shared WebAssembly.Memory when the SIMD kernels can blend in it) and the input ring. */
export function openSharedPage<S extends Schema>(context: PageTransportContext<S>): PageTransport<S, SharedAttachConfig> {
  const { schema, layout, anchor, maxSpins, input, events } = context;
  let memory: WebAssembly.Memory | null = null;
  if (context.kernels === 'wasm-simd' && simdSupported()) {
    // the shared buffer as a WebAssembly memory, with a scratch block for the kernels' output after the layout
    const pages = Math.ceil((layout.totalBytes + layout.blockBytes) / 65_536);
    memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  }
  const buffer = memory === null ? allocateSharedBuffer(layout, anchor) : initStateBuffer(memory.buffer as unknown as SharedArrayBuffer, layout, anchor);
  const ring = input === null ? null : (allocateInputRing(input.capacity, input.payloadWidth, true) as SharedArrayBuffer);
  const eventRing = events === null ? null : (allocateEventRing(events.capacity, events.payloadWidth, true) as SharedArrayBuffer);
  const half = joinSharedPage<S>({ schema, layout, buffer, memory, maxSpins });
  return {
    ...half,
    attach: {
      kind: 'shared',
      buffer,
      signature: layout.signature,
      capacity: layout.capacity,
      // the worker publishes with memory.copy over it (core/publish-copy.ts)
      ...(memory === null ? {} : { memory }),
      ...(ring === null ? {} : { input: ring }),
      ...(eventRing === null ? {} : { events: eventRing }),
    },
    input: ring === null ? null : new InputWriter(ring),
    events: eventRing === null ? null : new EventReader(eventRing),
  };
}

/** What a thread needs to read a state buffer another thread made (the render worker reads the page's). */
export interface SharedJoin<S extends Schema> {
  readonly schema: S;
  readonly layout: Layout;
  readonly buffer: SharedArrayBuffer;
  /** The shared WebAssembly.Memory `buffer` is the buffer of, or null: the SIMD kernels blend in it where they can. */
  readonly memory: WebAssembly.Memory | null;
  readonly maxSpins: number;
  /** The event ring, when this thread is the one that presents its events (a render worker); absent: none. */
  readonly events?: SharedArrayBuffer;
}

/**
 * The page half over an existing buffer: the reader, the header words, the doorbell and COVERED; no input ring
 * (the page that made the buffer writes it), no event ring (the page that made it presents them) and nothing to attach (the worker is attached already).
 */
export function joinSharedPage<S extends Schema>(join: SharedJoin<S>): PageTransport<S, SharedAttachConfig> {
  const { schema, layout, memory } = join;
  let simd: TransportKernels<S> | null = null;
  if (memory !== null) {
    // and, where the engine has multi-memory, a plain render memory the kernels write into directly
    const kernels = createBlendKernels({ memory, renderBytes: layout.blockBytes });
    if (kernels.backend === 'wasm-simd') simd = { kernels, scratch: fieldViews<S>(memory.buffer, layout.totalBytes, layout) };
  }
  // with the memory, the views lie over its buffer: the object the kernels compare views against
  const buffer = simd === null ? join.buffer : (memory!.buffer as unknown as SharedArrayBuffer);
  const views = createSharedViews<S>(buffer, schema, layout.capacity);
  return {
    kind: 'shared',
    attach: { kind: 'shared', buffer, signature: layout.signature, capacity: layout.capacity },
    transfer: [],
    source: new SlotReader(views, join.maxSpins),
    header: views.i32,
    views,
    simd,
    input: null,
    // the thread that joins as the one reader presents the events (the page that made the buffer then does not)
    events: join.events === undefined ? null : new EventReader(join.events),
    expectFrame: (time) => writeNextFrame(views, time),
    covered: () => readCovered(views),
    inputPushed: () => {}, // the worker reads the ring itself
    close: () => {},
  };
}
