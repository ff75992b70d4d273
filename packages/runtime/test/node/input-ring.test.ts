import { describe, expect, it } from 'vitest';
import { allocateInputRing, computeInputRingLayout, INPUT_RING, INPUT_RING_MAGIC } from '../../src/core/input-ring.ts';
import { InputWriter } from '../../src/core/input-writer.ts';
import { InputReader, type InputEvent } from '../../src/core/input-reader.ts';
import { mulberry32 } from '../../src/testing/prng.ts';


interface Seen {
  time: number;
  code: number;
  sequence: number;
  payload: number[];
}

/** Copies events out of the reused view (tests may allocate; the ring may not). */
function takeAll(reader: InputReader, until = Infinity): Seen[] {
  const seen: Seen[] = [];
  const n = reader.take(until, (e) => {
    const payload: number[] = [];
    for (let i = 0; i < e.width; i++) payload.push(e.payload(i));
    seen.push({ time: e.time, code: e.code, sequence: e.sequence, payload });
  });
  expect(n).toBe(seen.length);
  return seen;
}

function ring(capacity: number, payloadWidth = 4, startAt?: number) {
  const buffer = allocateInputRing(capacity, payloadWidth);
  if (startAt !== undefined) {
    // as if `startAt` events had already gone through: both counters there, nothing unread
    const i32 = new Int32Array(buffer, 0, 16);
    i32[INPUT_RING.WRITE] = startAt | 0;
    i32[INPUT_RING.READ] = startAt | 0;
  }
  return { buffer, writer: new InputWriter(buffer), reader: new InputReader(buffer) };
}

describe('input ring layout', () => {
  it('pins the header and record offsets', () => {
    // header 0...63, record r at 64 + r * 7 * 8: TIME CODE SEQUENCE P0 P1 P2 P3
    expect(computeInputRingLayout(8, 4)).toEqual({ capacity: 8, payloadWidth: 4, recordWords: 7, recordsOffset: 64, totalBytes: 512 });
    // header 0...63, records of 3 words: 64 + 2 * 24
    expect(computeInputRingLayout(2, 0)).toEqual({ capacity: 2, payloadWidth: 0, recordWords: 3, recordsOffset: 64, totalBytes: 112 });
    expect(INPUT_RING).toEqual({ MAGIC: 0, CAPACITY: 1, PAYLOAD_WIDTH: 2, WRITE: 3, READ: 4, REJECTED: 5 });
    const buffer = allocateInputRing(16);
    expect(buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(buffer.byteLength).toBe(64 + 16 * 7 * 8);
    expect(Array.from(new Int32Array(buffer, 0, 6))).toEqual([INPUT_RING_MAGIC, 16, 4, 0, 0, 0]);
  });

  it('refuses a capacity that is not a power of two >= 2, naming the fix', () => {
    expect(() => computeInputRingLayout(100, 4)).toThrow(/^steadyframe: input ring capacity must be a power of two.*got 100 \(try 128\)$/);
    for (const bad of [0, 1, 3, 6, 2.5, -4, NaN, Infinity, 2 ** 31]) {
      expect(() => allocateInputRing(bad)).toThrow(/^steadyframe: input ring capacity must be a power of two, at least 2/);
    }
  });

  it('refuses a bad payload width and a ring too large for a browser', () => {
    for (const bad of [-1, 1.5, NaN]) {
      expect(() => allocateInputRing(8, bad)).toThrow(/^steadyframe: input ring payload width must be a whole number/);
    }
    expect(() => computeInputRingLayout(2 ** 30, 4)).toThrow(/^steadyframe: an input ring of 1073741824 events .* lower the capacity/);
  });

  it('refuses a buffer that is not an input ring', () => {
    expect(() => new InputReader(new SharedArrayBuffer(16))).toThrow(/^steadyframe: this buffer \(16 bytes\) is too small/);
    expect(() => new InputWriter(new SharedArrayBuffer(512))).toThrow(/^steadyframe: this SharedArrayBuffer is not an input ring/);
    const good = allocateInputRing(8);
    const longer = new SharedArrayBuffer(good.byteLength + 8);
    new Int32Array(longer).set(new Int32Array(good, 0, 16));
    expect(() => new InputReader(longer)).toThrow(/^steadyframe: input ring buffer has 520 bytes but its header says 8 events/);
  });
});

describe('input ring semantics (one thread)', () => {
  it('hands every event over once, in order, with its code, sequence and payload', () => {
    const { writer, reader } = ring(8);
    expect(reader.peekTime()).toBe(Infinity);
    expect(reader.available()).toBe(0);
    for (let k = 0; k < 5; k++) expect(writer.push(10 + k, 100 + k, k, -k, k / 2)).toBe(true);
    expect(reader.available()).toBe(5);
    expect(reader.peekTime()).toBe(10);
    expect(takeAll(reader)).toEqual(
      [0, 1, 2, 3, 4].map((k) => ({ time: 10 + k, code: 100 + k, sequence: k, payload: [k, -k, k / 2, 0] })),
    );
    expect(takeAll(reader)).toEqual([]); // none twice
    expect(reader.available()).toBe(0);
    expect(reader.peekTime()).toBe(Infinity);
  });

  it('refuses a push to a full ring, counts it, and never overwrites', () => {
    const { writer, reader } = ring(4);
    for (let k = 0; k < 4; k++) expect(writer.push(k, k)).toBe(true);
    expect(writer.space()).toBe(0);
    expect(writer.push(4, 4)).toBe(false);
    expect(writer.push(5, 5)).toBe(false);
    expect(writer.rejected).toBe(2);
    expect(reader.rejected).toBe(2);
    expect(writer.nextSequence).toBe(4); // refused pushes take no sequence number
    expect(takeAll(reader, 1).map((e) => e.code)).toEqual([0, 1]);
    expect(writer.space()).toBe(2);
    expect(writer.push(6, 6)).toBe(true);
    expect(takeAll(reader).map((e) => [e.code, e.sequence])).toEqual([
      [2, 2],
      [3, 3],
      [6, 4],
    ]);
    expect(writer.rejected).toBe(2);
  });

  it('clamps a time earlier than the last accepted one up to it, so events stay in order', () => {
    const { writer, reader } = ring(4);
    writer.push(10, 1);
    writer.push(5, 2); // earlier: clamped to 10
    writer.push(NaN, 3); // NaN: clamped to 10
    writer.push(12, 4);
    expect(writer.push(1, 5)).toBe(false); // refused: does not move the clamp
    expect(takeAll(reader).map((e) => [e.code, e.time])).toEqual([
      [1, 10],
      [2, 10],
      [3, 10],
      [4, 12],
    ]);
    writer.push(11, 6); // still clamped to the last accepted time, 12
    expect(takeAll(reader).map((e) => e.time)).toEqual([12]);
  });

  it('takes up to and including `until`, and leaves the first later event for the next call', () => {
    const { writer, reader } = ring(8);
    for (const t of [10, 20, 20, 30]) writer.push(t, t);
    expect(takeAll(reader, 9.999)).toEqual([]);
    expect(takeAll(reader, 20).map((e) => e.time)).toEqual([10, 20, 20]);
    expect(reader.peekTime()).toBe(30);
    expect(reader.available()).toBe(1);
    expect(takeAll(reader, 29.999)).toEqual([]);
    expect(takeAll(reader, 30).map((e) => e.time)).toEqual([30]);
    expect(reader.peekTime()).toBe(Infinity);
  });

  it('delivers a press and a release inside one tick, both, in order', () => {
    const KEY_DOWN = 1;
    const KEY_UP = 2;
    const KEY_SPACE = 32;
    const { writer, reader } = ring(8);
    const tick = 1000 / 60;
    writer.push(100 + 0.2 * tick, KEY_DOWN, KEY_SPACE);
    writer.push(100 + 0.7 * tick, KEY_UP, KEY_SPACE);
    writer.push(100 + 1.5 * tick, KEY_DOWN, KEY_SPACE); // the next tick's
    const events = takeAll(reader, 100 + tick);
    expect(events.map((e) => [e.code, e.payload[0]])).toEqual([
      [KEY_DOWN, KEY_SPACE],
      [KEY_UP, KEY_SPACE],
    ]);
    expect(takeAll(reader, 100 + 2 * tick).map((e) => e.code)).toEqual([KEY_DOWN]);
  });

  it('hands over one reused view, valid only in the callback', () => {
    const { writer, reader } = ring(4, 2);
    writer.push(1, 1, 7, 8);
    writer.push(2, 2, 9, 10);
    const views = new Set<InputEvent>();
    reader.take(Infinity, (e) => {
      views.add(e);
      expect(e.width).toBe(2);
      expect(e.payload(-1)).toBeNaN();
      expect(e.payload(2)).toBeNaN();
      expect(e.payload(0) + 1).toBe(e.payload(1));
    });
    expect(views.size).toBe(1);
  });

  it('fills payloads past p3 with pushPayload, and zeroes what is left out', () => {
    const { writer, reader } = ring(2, 6);
    writer.pushPayload(1, 1, [1, 2, 3, 4, 5, 6, 7]); // 7 is beyond the width: ignored
    writer.push(2, 2, 9);
    expect(takeAll(reader).map((e) => e.payload)).toEqual([
      [1, 2, 3, 4, 5, 6],
      [9, 0, 0, 0, 0, 0],
    ]);
    // the records are reused: nothing stale shows through
    writer.pushPayload(3, 3, new Float64Array([8]));
    writer.push(4, 4);
    expect(takeAll(reader).map((e) => e.payload)).toEqual([
      [8, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
    ]);
    const bare = ring(2, 0);
    bare.writer.push(5, 5, 1, 2, 3, 4);
    expect(takeAll(bare.reader)).toEqual([{ time: 5, code: 5, sequence: 0, payload: [] }]);
  });

  it('frees the events handed over before a visitor throws, and does not hand them over again', () => {
    const { writer, reader } = ring(4);
    for (let k = 0; k < 4; k++) writer.push(k, k);
    expect(() =>
      reader.take(Infinity, (e) => {
        if (e.code === 1) throw new Error('game bug');
      }),
    ).toThrow('game bug');
    expect(reader.available()).toBe(2);
    expect(writer.space()).toBe(2);
    expect(takeAll(reader).map((e) => e.code)).toEqual([2, 3]);
  });
});

describe('input ring wrap-around', () => {
  it('goes round a small ring many times without losing or repeating an event', () => {
    const { writer, reader } = ring(4);
    const random = mulberry32(7);
    let pushed = 0;
    let next = 0;
    let bad = 0;
    for (let round = 0; round < 5000; round++) {
      const burst = 1 + Math.floor(random() * 4);
      for (let k = 0; k < burst; k++) if (!writer.push(pushed, pushed % 7, pushed++)) bad++;
      reader.take(Infinity, (e) => {
        if (e.sequence !== next || e.payload(0) !== next || e.code !== next % 7) bad++;
        next++;
      });
    }
    expect(bad).toBe(0);
    expect(next).toBe(pushed);
    expect(pushed).toBeGreaterThan(5000 * 2); // ~3,000 times round the ring
    expect(writer.rejected).toBe(0);
  });

  it('keeps working when WRITE and READ wrap past 2^32', () => {
    const start = 2 ** 32 - 10;
    const { buffer, writer, reader } = ring(8, 4, start);
    const i32 = new Int32Array(buffer, 0, 16);
    expect(writer.nextSequence).toBe(start);
    expect(reader.available()).toBe(0);
    let next = start;
    let pushed = 0;
    for (let round = 0; round < 12; round++) {
      // fill the ring to the brim, straddling the wrap on the way
      for (let guard = 0; guard <= 8 && writer.push(pushed, 1, pushed); guard++) pushed++; // guard: a broken full check must fail, not hang
      expect(reader.available()).toBe(8);
      expect(reader.peekTime()).toBe(pushed - 8);
      expect(writer.space()).toBe(0);
      reader.take(pushed - 4, (e) => {
        expect(e.sequence).toBe(next);
        expect(e.payload(0)).toBe(next - start);
        next++;
      });
      expect(reader.available()).toBe(3);
    }
    reader.take(Infinity, () => next++);
    expect(next - start).toBe(pushed);
    expect(next).toBeGreaterThan(2 ** 32); // the sequence number keeps counting past the wrap
    expect(Atomics.load(i32, INPUT_RING.WRITE) >>> 0).toBe((start + pushed) % 2 ** 32); // the counter wrapped
    expect(Atomics.load(i32, INPUT_RING.READ)).toBe(Atomics.load(i32, INPUT_RING.WRITE));
    expect(writer.rejected).toBe(12);
  });

  it('keeps counting rejections as a uint32', () => {
    const { buffer, writer } = ring(2);
    new Int32Array(buffer, 0, 16)[INPUT_RING.REJECTED] = -2; // 2^32 - 2 refusals so far
    writer.push(0, 0);
    writer.push(0, 0);
    expect(writer.rejected).toBe(2 ** 32 - 2);
    expect(writer.push(0, 0)).toBe(false);
    expect(writer.rejected).toBe(2 ** 32 - 1);
    expect(writer.push(0, 0)).toBe(false);
    expect(writer.rejected).toBe(0);
  });
});

/**
 * Checks what the consumer sees against what the producer was told: every accepted push is delivered exactly
 * once, in order, with consecutive sequence numbers; a refused push is never delivered.
 */
class SequenceChecker {
  /** attempt id of each accepted push, by sequence - firstSequence */
  readonly accepted: number[] = [];
  readonly refused = new Set<number>();
  delivered = 0;
  readonly problems: string[] = [];
  constructor(readonly firstSequence: number) {}

  pushed(attempt: number, ok: boolean): void {
    if (ok) this.accepted.push(attempt);
    else this.refused.add(attempt);
  }

  deliver(sequence: number, attempt: number): void {
    const expected = this.firstSequence + this.delivered;
    if (this.refused.has(attempt)) this.problems.push(`refused attempt ${attempt} was delivered`);
    else if (sequence !== expected) this.problems.push(`sequence ${sequence} delivered, expected ${expected}`);
    else if (this.accepted[this.delivered] !== attempt) {
      this.problems.push(`sequence ${sequence} carried attempt ${attempt}, expected ${this.accepted[this.delivered]}`);
    }
    this.delivered++;
  }
}

describe('input ring fuzz (seeded)', () => {
  const SEEDS = 40;
  const STEPS = 3000;
  for (let seed = 1; seed <= SEEDS; seed++) {
    it(`seed ${seed}: random bursts, ticks and full rings lose nothing and repeat nothing`, () => {
      const random = mulberry32(seed);
      const capacity = 2 ** (1 + Math.floor(random() * 5)); // 2 .. 32
      const width = Math.floor(random() * 6);
      // half the seeds start just before the counters wrap
      const start = seed % 2 === 0 ? 2 ** 32 - Math.floor(random() * 3 * capacity) - 1 : 0;
      const { writer, reader } = ring(capacity, width, start);
      const checker = new SequenceChecker(start);
      /** the model: times of the accepted, not yet delivered events */
      const queue: { time: number; attempt: number }[] = [];
      let attempt = 0;
      let clock = 0; // the producer's time
      let lastAccepted = -Infinity;
      let tickTime = 0; // the consumer's simulated time
      let refusals = 0;
      let fulls = 0;
      const problem = (what: string) => {
        if (checker.problems.length < 10) checker.problems.push(`step ${step}: ${what}`);
      };
      let step = 0;
      for (; step < STEPS; step++) {
        const action = random();
        if (action < 0.5) {
          // a burst, sometimes far larger than the ring; times mostly forward, sometimes back (clamped)
          const burst = Math.floor(random() * random() * 3 * capacity);
          for (let k = 0; k < burst; k++) {
            clock += random() < 0.2 ? -random() * 3 : random() * 2;
            const id = attempt++;
            const ok = writer.push(clock, id % 251, id, id * 0.5, -id, id + 0.25);
            if (ok !== queue.length < capacity) problem(`push returned ${ok} with ${queue.length} of ${capacity} unread`);
            checker.pushed(id, ok);
            if (ok) {
              lastAccepted = Math.max(lastAccepted, clock);
              queue.push({ time: lastAccepted, attempt: id });
            } else refusals++;
            if (queue.length === capacity) fulls++;
          }
        } else {
          // a tick: take everything up to some time, usually just past the producer's clock, sometimes behind
          tickTime = random() < 0.1 ? Infinity : random() < 0.5 ? clock - random() * 4 : clock + random();
          const peek = reader.peekTime();
          if (peek !== (queue[0]?.time ?? Infinity)) problem(`peekTime ${peek}, expected ${queue[0]?.time}`);
          if (reader.available() !== queue.length) problem(`available ${reader.available()}, expected ${queue.length}`);
          let visits = 0;
          const n = reader.take(tickTime, (e) => {
            visits++;
            const head = queue.shift();
            checker.deliver(e.sequence, width > 0 ? e.payload(0) : (head?.attempt ?? -1));
            if (head === undefined) return problem('delivered more events than were accepted');
            if (e.time !== head.time) problem(`time ${e.time}, expected ${head.time}`);
            if (!(e.time <= tickTime)) problem(`time ${e.time} is after until ${tickTime}`);
            if (e.code !== head.attempt % 251) problem(`code ${e.code} for attempt ${head.attempt}`);
            const expected = [head.attempt, head.attempt * 0.5, -head.attempt, head.attempt + 0.25];
            for (let i = 0; i < width; i++) {
              if (e.payload(i) !== (expected[i] ?? 0)) problem(`payload ${i} = ${e.payload(i)} for attempt ${head.attempt}`);
            }
          });
          if (n !== visits) problem(`take returned ${n} after ${visits} visits`);
          // stopped at the first later event, which stays
          if (queue.length > 0 && !(queue[0]!.time > tickTime)) problem(`left ${queue[0]!.time} behind at until ${tickTime}`);
        }
      }
      reader.take(Infinity, (e) => checker.deliver(e.sequence, width > 0 ? e.payload(0) : checker.accepted[checker.delivered]!));
      expect(checker.problems).toEqual([]);
      expect(checker.delivered).toBe(checker.accepted.length);
      expect(writer.rejected).toBe(refusals);
      expect(reader.rejected).toBe(refusals);
      expect(checker.accepted.length + refusals).toBe(attempt);
      // the fuzz really went round the ring and really filled it
      expect(checker.accepted.length).toBeGreaterThan(4 * capacity);
      expect(fulls).toBeGreaterThan(0);
    });
  }
});
