/**
 * The shared buffer's header, by name: the words the worker keeps up to date that a renderer may watch
 * (`runtime.views`, null with the message transport, which has no shared header). Each is one `Atomics.load`
 * (the worker writes them through Atomics), so a reading can be late by whatever the worker did since: poll
 * them, never take two as one consistent snapshot. Allocate nothing.
 *
 * Published pairs are read through `runtime.reader` and `pair-words.ts`, never from here: the slots are only
 * consistent under the lock the reader takes.
 */
import { F64, I32, STATUS_NAMES, type SharedViews, type StatusCode } from '../core/layout.ts';
import type { SimulationStatus } from '../contracts/remote.ts';
import type { Schema } from '../core/schema.ts';

/** The header views of a shared buffer: `runtime.views` of any schema. */
export type HeaderViews = Pick<SharedViews<Schema>, 'i32' | 'f64'>;

/** What the simulation is doing, as its worker last published it. */
export function statusOf(views: HeaderViews): SimulationStatus {
  return STATUS_NAMES[Atomics.load(views.i32, I32.STATUS) as StatusCode] ?? 'idle';
}

/** States published so far, mod 2^32 (compare two with `(a - b) >>> 0`), as `runtime.reader.publishCount()`. */
export function publishCountOf(views: HeaderViews): number {
  return Atomics.load(views.i32, I32.PUBLISH_SEQ) >>> 0;
}

/** The worker's heartbeat: bumped every tick and every 250 ms; a value that stops changing is a stopped worker. */
export function heartbeatOf(views: HeaderViews): number {
  return Atomics.load(views.i32, I32.HEARTBEAT);
}

/** Times the worker dropped backlog (the `overload` event's count). */
export function overloadsOf(views: HeaderViews): number {
  return Atomics.load(views.i32, I32.OVERLOADS);
}

/** Publishes the worker gave up because this page held the lock too long (the `readerStall` event's count), unsigned. */
export function readerStallsOf(views: HeaderViews): number {
  return Atomics.load(views.i32, I32.READER_STALLS) >>> 0;
}

/** The shared clock's zero in `performance.timeOrigin + performance.now()` terms; written once, at set-up. */
export function clockAnchorOf(views: HeaderViews): number {
  return views.f64[F64.CLOCK_ANCHOR]!;
}
