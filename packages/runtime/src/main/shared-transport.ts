/**
 * The shared transport, page side: one SharedArrayBuffer laid out by layout.ts (read under LOCK by a
 * `SlotReader`), NEXT_FRAME written under its sequence lock, and the input ring in a SharedArrayBuffer of its
 * own. Needs a cross-origin isolated page.
 */
import { allocateInputRing, InputWriter } from '../core/input-ring.ts';
import { allocateSharedBuffer, createSharedViews, initStateBuffer, type Layout } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { readCovered, writeNextFrame } from '../core/doorbell.ts';
import { SlotReader } from '../core/slots.ts';
import type { SharedViews } from '../core/layout.ts';
import type { MainTransport } from './transport.ts';

export interface SharedTransportOptions {
  /** The clock anchor written into the header (see clock.ts). */
  readonly anchor: number;
  /** A shared WebAssembly memory to lay the buffer over (the SIMD kernels read it), or none. */
  readonly memory?: WebAssembly.Memory;
  readonly maxSpins: number;
  /** The input ring's size, or null for none. */
  readonly input: { readonly capacity: number; readonly payloadWidth: number } | null;
  /** The reader of the buffer; default a `SlotReader` (the test-only entry passes a broken one). */
  readonly reader?: <S extends Schema>(views: SharedViews<S>, maxSpins: number) => SlotReader<S>;
}

export function createSharedMainTransport<S extends Schema>(schema: S, layout: Layout, options: SharedTransportOptions): MainTransport<S> {
  const buffer =
    options.memory === undefined
      ? allocateSharedBuffer(layout, options.anchor)
      : initStateBuffer(options.memory.buffer as unknown as SharedArrayBuffer, layout, options.anchor);
  const views = createSharedViews(buffer, schema, layout.capacity);
  const ring = options.input === null ? null : (allocateInputRing(options.input.capacity, options.input.payloadWidth, true) as SharedArrayBuffer);
  return {
    kind: 'shared',
    attach: {
      buffer,
      signature: layout.signature,
      capacity: layout.capacity,
      // the worker publishes with memory.copy over it (core/publish-copy.ts)
      ...(options.memory === undefined ? {} : { memory: options.memory }),
      ...(ring === null ? {} : { input: ring }),
    },
    transfer: [],
    source: options.reader?.(views, options.maxSpins) ?? new SlotReader(views, options.maxSpins),
    header: views.i32,
    views,
    input: ring === null ? null : new InputWriter(ring),
    expectFrame: (time) => writeNextFrame(views, time),
    covered: () => readCovered(views),
    inputPushed: () => {}, // the worker reads the ring itself
    close: () => {},
  };
}
