/**
 * The worker's recorder (`runtime.record()`; the format is core/recording.ts): while it is on, every tick's
 * times, input events and state hash (a step that threw: its times and events, marked), a keyframe every
 * `keyframeEvery` ticks, and the changes of tick rate and time scale and the restarts, in the order they
 * happened; with `ticks`, until it holds that many ticks (then it is full: it writes nothing more and no longer
 * digests events, and `stopRecording()` returns it). Only the worker's thread touches it; a tick costs it one
 * pass over the live state (the hash) and a few bytes. Its head is a snapshot of where it starts (worker/snapshot.ts). The setup goes in as JSON: a setup
 * JSON cannot hold whole (a Map, a typed array) reaches the replay's `init` otherwise, and the replay says where
 * that made a difference.
 */
import { EventDigest } from '../core/event-digest.ts';
import { ByteWriter, hashState, liveState, RECORD, TICK_FLAGS, writeHead, writeWorldState } from '../core/recording.ts';
import type { RecordOptions } from '../contracts/remote.ts';
import type { Schema } from '../core/schema.ts';
import { headOf } from './snapshot.ts';
import type { Attached, SimulationState, TickRecorder } from './state.ts';
import type { TickInput } from './tick-input.ts';

/** Events a tick may carry in a recording (a u16 count). */
const MAX_EVENTS = 0xffff;

export class Recorder<S extends Schema> implements TickRecorder {
  readonly #out = new ByteWriter();
  readonly #hash = new Uint32Array(2);
  /** The events each step emits, digested (`tick.emit` feeds it while this recorder is on). */
  readonly #digest: EventDigest;
  readonly #keyframeEvery: number;
  /** The world's block (laid out like a published one). */
  readonly #block: Float32Array;
  readonly #payloadWidth: number;
  #lastAt: number | null = null;
  #ticks = 0;
  /** The ticks to record (`ticks`), or Infinity. */
  readonly #limit: number;

  constructor(
    private readonly state: SimulationState<S>,
    private readonly a: Attached<S>,
    options: RecordOptions,
  ) {
    const every = options.keyframeEvery ?? 60;
    if (!Number.isInteger(every) || every < 0) throw new RangeError(`steadyframe: keyframeEvery is a whole number of ticks (0: none); got ${String(every)}`);
    this.#keyframeEvery = every;
    const limit = options.ticks ?? Infinity;
    if (limit !== Infinity && (!Number.isInteger(limit) || limit < 1)) throw new RangeError(`steadyframe: record's ticks is a whole number of ticks, at least 1; got ${String(limit)}`);
    this.#limit = limit;
    this.#block = a.block;
    const head = headOf(state, a, every);
    this.#payloadWidth = head.payloadWidth;
    writeHead(this.#out, head);
    this.#digest = new EventDigest();
    state.eventDigest.current = this.#digest;
  }

  /**
   * After the step of a tick (before its publish): its times, its events, the hash of the world it made; or,
   * `threw`, that its step threw (no hash: nothing was published, and the tick is made again after a restart).
   */
  tick(at: number, previousAt: number, input: TickInput, threw = false): void {
    if (this.#full) return;
    const out = this.#out;
    const expected = this.#lastAt === null ? null : this.#lastAt + this.state.tickLength;
    const withAt = at !== expected;
    const withPrevious = previousAt !== this.#lastAt;
    const digest = this.#digest;
    const emitted = !threw && digest.count > 0;
    out.u8(RECORD.TICK);
    out.u8((withAt ? TICK_FLAGS.AT : 0) | (withPrevious ? TICK_FLAGS.PREVIOUS : 0) | (threw ? TICK_FLAGS.THREW : 0) | (emitted ? TICK_FLAGS.EMITTED : 0));
    if (withAt) out.f64(at);
    if (withPrevious) out.f64(previousAt);
    const n = Math.min(input.length, MAX_EVENTS);
    out.u16(n);
    const width = this.#payloadWidth;
    for (let i = 0; i < n; i++) {
      out.f64(input.time(i));
      out.f64(input.code(i));
      out.f64(input.sequence(i));
      out.u8(width);
      for (let j = 0; j < width; j++) out.f64(input.payload(i, j));
    }
    if (threw) {
      digest.reset(); // its events went with its tick
      return;
    }
    const count = this.a.world.world.count;
    hashState(this.a.views.layout, this.#block, count, this.#hash);
    out.u32(this.#hash[0]!);
    out.u32(this.#hash[1]!);
    if (emitted) {
      // the events the step emitted: how many, and their digest
      out.u32(digest.count);
      digest.finish(this.#hash);
      out.u32(this.#hash[0]!);
      out.u32(this.#hash[1]!);
    }
    digest.reset();
    this.#lastAt = at;
    this.#ticks++;
    if (this.#keyframeEvery > 0 && this.#ticks % this.#keyframeEvery === 0) {
      out.u8(RECORD.KEYFRAME);
      writeWorldState(out, liveState(this.a.views.layout, this.#block, count));
    }
    if (this.#full) this.#stopDigesting();
  }

  /** It holds the ticks it was asked for: it writes nothing more. */
  get #full(): boolean {
    return this.#ticks >= this.#limit;
  }

  #stopDigesting(): void {
    if (this.state.eventDigest.current === this.#digest) this.state.eventDigest.current = null;
  }

  rate(hz: number): void {
    if (this.#full) return;
    this.#out.u8(RECORD.RATE);
    this.#out.f64(hz);
  }

  scale(scale: number): void {
    if (this.#full) return;
    this.#out.u8(RECORD.SCALE);
    this.#out.f64(scale);
  }

  restart(from: 'last' | 'scratch'): void {
    if (this.#full) return;
    this.#out.u8(RECORD.RESTART);
    this.#out.u8(from === 'scratch' ? 1 : 0);
    this.#lastAt = null; // the loop re-pins its timeline: the next tick's times are written out
  }

  /** The recording, whole. The steps' events are no longer digested. */
  finish(): Uint8Array {
    this.#stopDigesting();
    return this.#out.finish();
  }

}
