/**
 * The input ring: a single-producer, single-consumer queue of input events on its own SharedArrayBuffer. The
 * main thread pushes (keys, pointer moves, stamped with the shared clock); the simulation worker takes, each
 * tick, every event up to that tick's time. Its memory map (header words, records, WRITE and READ) is the
 * record ring's (record-ring.ts), which the event ring shares; this ring's STAMP is the event's time.
 *
 * Who writes what, and when:
 * - MAGIC, CAPACITY, PAYLOAD_WIDTH: `allocateInputRing`, once, before either side sees the buffer.
 * - WRITE, REJECTED and records outside [READ, WRITE): the producer (`InputWriter`) only.
 * - READ: the consumer (`InputReader`) only. Records in [READ, WRITE) are read by the consumer only.
 *
 * Why the plain record accesses never race: record-ring.ts (ownership passes only through WRITE and READ).
 *
 * The producer is input-writer.ts, the consumer input-reader.ts. Neither side ever blocks: a full ring makes `push` return false (and counts it in REJECTED), it never
 * overwrites or waits; an empty ring makes `take` return 0. There is no doorbell: the worker takes input once
 * per tick, on the wake-ups it already has.
 */
import {
  allocateRing,
  computeRingLayout,
  MAX_RING_CAPACITY,
  readRingLayout,
  RING,
  RING_HEADER_WORDS,
  RING_RECORD,
  RING_RECORDS_OFFSET,
  type RecordRingLayout,
  type RingKind,
} from './record-ring.ts';

/** 'SFI1': marks a buffer laid out as an input ring, version 1. */
export const INPUT_RING_MAGIC = 0x53464931;

const INPUT_KIND: RingKind = { magic: INPUT_RING_MAGIC, name: 'input ring', allocator: 'allocateInputRing' };

/** Int32 header word indices (the record ring's; LOST is the event ring's and stays 0 here). */
export const INPUT_RING = {
  MAGIC: RING.MAGIC,
  CAPACITY: RING.CAPACITY,
  PAYLOAD_WIDTH: RING.PAYLOAD_WIDTH,
  /** Events ever accepted, mod 2^32. Producer only; published with Atomics.store. */
  WRITE: RING.WRITE,
  /** Events ever taken, mod 2^32. Consumer only; published with Atomics.store. */
  READ: RING.READ,
  /** Pushes refused because the ring was full, mod 2^32. Producer only. */
  REJECTED: RING.REJECTED,
} as const;
export const INPUT_HEADER_WORDS = RING_HEADER_WORDS;
/** Byte offset of record 0. */
export const INPUT_RECORDS_OFFSET = RING_RECORDS_OFFSET; // 64

/** Float64 words of one record, relative to the record's first word. Payload value i is word PAYLOAD + i. */
export const RECORD = {
  /** Shared-clock ms; never less than the previous record's time. */
  TIME: RING_RECORD.STAMP,
  /** The game's event code. */
  CODE: RING_RECORD.CODE,
  /** The producer's count of accepted events before this one (does not wrap at 2^32). */
  SEQUENCE: RING_RECORD.SEQUENCE,
  PAYLOAD: RING_RECORD.PAYLOAD,
} as const;

/** Largest capacity: keeps (WRITE - READ) >>> 0 unambiguous and the counters far from each other mod 2^32. */
export const MAX_INPUT_RING_CAPACITY = MAX_RING_CAPACITY;

export type InputRingLayout = RecordRingLayout;

/** Computes the ring's offsets and size. Pure; throws at set-up for a bad capacity or payload width. */
export function computeInputRingLayout(capacity: number, payloadWidth: number): InputRingLayout {
  return computeRingLayout(INPUT_KIND, capacity, payloadWidth);
}

/**
 * Allocates and initialises an empty input ring. Hand the buffer to the worker (postMessage or a comlink call)
 * before pushing; both sides then wrap it: `new InputWriter(buffer)` on the page, `new InputReader(buffer)` in the
 * worker. Allocates; call once at set-up. A plain buffer (`shared` false) serves a ring whose two ends live on
 * one thread (the message transport's).
 */
export function allocateInputRing(capacity: number, payloadWidth = 4, shared = true): ArrayBufferLike {
  return allocateRing(INPUT_KIND, capacity, payloadWidth, shared);
}

/** Checks a buffer made by `allocateInputRing` and returns its layout. Throws at set-up. */
export function readInputRingLayout(buffer: ArrayBufferLike): InputRingLayout {
  return readRingLayout(INPUT_KIND, buffer);
}
