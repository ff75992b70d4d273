/**
 * The event ring: what the simulation's steps tell the page happened (a hit, a pickup, a shot), as small records
 * stamped with the tick that emitted them, on a buffer of its own. The worker's steps emit (`tick.emit`); the page
 * presents each event with the first frame that shows its tick (ARCHITECTURE.md, "Events and the frame that shows
 * them"). Its memory map is the record ring's (record-ring.ts), shared with the input ring; this ring's STAMP is
 * the tick.
 *
 * ```text
 *            committed (the page may read)      staged (this tick's, not yet published)
 *   READ ────────────────────────────▶ WRITE ──────────────────▶ staged end
 *   │ tick 7 │ tick 8 │ tick 8 │ tick 9 │ tick 10 │ tick 10 │      (free)      │
 *   └ the frame showing tick 9 takes ─┘
 * ```
 *
 * Who writes what, and when:
 * - MAGIC, CAPACITY, PAYLOAD_WIDTH: `allocateEventRing` on the page, once, before the worker sees the buffer.
 * - Records outside [READ, WRITE): the worker (`EventWriter`), during its steps (staged past WRITE).
 * - WRITE, REJECTED: the worker. WRITE moves once per published tick, inside the slot writer's flip, while the
 *   worker holds the state buffer's LOCK and before STATE_INDEX changes: a page that reads a slot whose tick is T
 *   (under LOCK) then loads WRITE sees every event of every tick up to T. A tick whose publish is skipped (a
 *   reader stall) keeps its events staged until the next publish; a step that throws leaves its events staged,
 *   and they are dropped (its tick never happened).
 * - READ: the page (`EventReader`), when a frame has handed its events over (at the next frame) or when the game
 *   takes them at once (`takeEvents`). Records in [READ, WRITE) are read by the page only.
 *
 * Neither side ever blocks. A full ring loses the event (the step's `emit` returns false), counts it in REJECTED,
 * and reports the loss to the page as an event of its own (`EVENTS_LOST`) as soon as there is room: never silent,
 * and the worker never waits for the page.
 */
import { allocateRing, computeRingLayout, readRingLayout, type RecordRingLayout, type RingKind } from './record-ring.ts';

/** 'SFE1': marks a buffer laid out as an event ring, version 1. */
export const EVENT_RING_MAGIC = 0x53464531;

const EVENT_KIND: RingKind = { magic: EVENT_RING_MAGIC, name: 'event ring', allocator: 'allocateEventRing' };

/**
 * The code of the event that reports lost events: payload 0 says how many were lost, its tick is the tick of the
 * first of them. Game codes are 0 or more; this one is the library's.
 */
export const EVENTS_LOST = -1;

/**
 * The event ring's size when `createRuntime`'s `events` leaves it out: 4,096 events of 4 payload values (224 KiB).
 * The ring holds the events of the ticks the page has not shown yet (the worker runs up to `maxLeadTicks` ahead,
 * and a frame may come late), plus the last frame's: at 60 ticks and 60 frames a second, 4,096 serve bursts of
 * about 1,000 events a tick; 100,000 events a second want 16,384 (ARCHITECTURE.md has the sum).
 */
export const DEFAULT_EVENT_CAPACITY = 4096;
export const DEFAULT_EVENT_PAYLOAD_WIDTH = 4;

export type EventRingLayout = RecordRingLayout;

/** Computes the ring's offsets and size. Pure; throws at set-up for a bad capacity or payload width. */
export function computeEventRingLayout(capacity: number, payloadWidth: number): EventRingLayout {
  return computeRingLayout(EVENT_KIND, capacity, payloadWidth);
}

/**
 * Allocates an empty event ring: shared (the shared transport: the worker writes it in place) or plain (the
 * message transport's page copy, or its worker's). Allocates; call once at set-up.
 */
export function allocateEventRing(capacity = DEFAULT_EVENT_CAPACITY, payloadWidth = DEFAULT_EVENT_PAYLOAD_WIDTH, shared = true): ArrayBufferLike {
  return allocateRing(EVENT_KIND, capacity, payloadWidth, shared);
}

/** Checks a buffer made by `allocateEventRing` and returns its layout. Throws at set-up. */
export function readEventRingLayout(buffer: ArrayBufferLike): EventRingLayout {
  return readRingLayout(EVENT_KIND, buffer);
}
