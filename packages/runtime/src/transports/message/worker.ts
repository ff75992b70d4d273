/**
 * The message transport, worker side: how the worker publishes when the page is not cross-origin isolated,
 * so there is no SharedArrayBuffer. The worker keeps the same memory map in a plain ArrayBuffer of its own and
 * runs the same loop; after each publish it copies the new state's live entities into a pooled ArrayBuffer and
 * transfers it to the main thread, which keeps the last two (previous and current) and sends the one before back
 * for reuse.
 *
 * ```text
 *   worker                                            main thread
 *   publish tick k -> copy into free buffer C ─── state(C, meta, header, taken) ──▶  previous = B, current = C
 *                                              ◀──────── return(A) ─────────  (A, the old previous, goes back)
 *   pool: A                                    ◀── frame(time), input(events) ── every frame
 * ```
 *
 * At most MAX_STATE_BUFFERS buffers circulate. When they are all out (the page is behind: a long task, a
 * stall), publishes are not posted; the next returned buffer carries the newest state, with its previous state
 * as a second buffer, since the page no longer holds the state before it. Memory stays bounded however long the
 * page stalls, and the page catches up in one message.
 *
 * Frame times arrive as messages and wake the loop (no Atomics.waitAsync without shared memory); input events
 * arrive in batches and go into a ring of the worker's own, read by the ticks as usual; the count taken goes back
 * with every message (the page's flow control, see page.ts).
 */
import type { MessageAttachConfig } from '../../contracts/remote.ts';
import type { SleepReport, WorkerHost } from '../../contracts/host.ts';
import type { WorkerTransport } from '../../contracts/transport.ts';
import { writeNextFrame } from '../../core/doorbell.ts';
import { allocateEventRing } from '../../core/event-ring.ts';
import { EventReader } from '../../core/event-reader.ts';
import { EventWriter } from '../../core/event-writer.ts';
import { allocateInputRing } from '../../core/input-ring.ts';
import { InputWriter } from '../../core/input-writer.ts';
import { InputReader } from '../../core/input-reader.ts';
import { allocateStateBuffer, computeLayout, createSharedViews, META, type SharedViews } from '../../core/layout.ts';
import { blockRuns, copyAcross, type BlockRuns } from '../../core/publish-copy.ts';
import type { Schema } from '../../core/schema.ts';
import { SlotWriter } from '../../core/slot-writer.ts';
import { INPUT_RECORD_HEAD, MAX_STATE_BUFFERS, type ToMain, type ToWorker } from './messages.ts';

/** A wait that neither yielded nor spun, and one that yielded (the loop's reports: contracts/host.ts). */
const ENDED_AT_ONCE: SleepReport = Object.freeze({ yielded: false, spunMs: 0 });
const SLEPT: SleepReport = Object.freeze({ yielded: true, spunMs: 0 });

export function connectMessageWorker<S extends Schema>(schema: S, config: MessageAttachConfig): WorkerTransport<S> {
  const { port, capacity, clockAnchor, inputRing, eventRing } = config;
  if (typeof port?.postMessage !== 'function') {
    throw new TypeError('steadyframe: the message transport attaches with a MessagePort; createRuntime() passes one');
  }
  // no shared memory: the same memory map in a buffer of our own, forwarded state by state
  const views = createSharedViews<S>(allocateStateBuffer(computeLayout(schema, capacity), clockAnchor, false), schema, capacity);
  const ring = inputRing === null ? null : allocateInputRing(inputRing.capacity, inputRing.payloadWidth, false);
  // the steps' events: staged and committed in a ring of our own, forwarded with each state message
  const events = eventRing === null || eventRing === undefined ? null : allocateEventRing(eventRing.capacity, eventRing.payloadWidth, false);
  return new MessagePublisher(
    port,
    views,
    ring === null ? null : new InputReader(ring),
    ring === null ? null : new InputWriter(ring),
    events === null ? null : new EventWriter(events),
    events === null ? null : new EventReader(events),
  );
}

class MessagePublisher<S extends Schema> implements WorkerTransport<S> {
  readonly kind = 'message' as const;
  readonly #pool: ArrayBuffer[] = [];
  /** Buffers allocated so far; never more than MAX_STATE_BUFFERS. */
  #allocated = 0;
  /** Buffers transferred to the page and not yet returned. */
  #out = 0;
  /** The tick of the newest state posted (the page's current), or -1 before the first. */
  #lastPostedTick = -1;
  /** A publish or restamp was held back (every buffer out): the next returned buffer carries the front slot. */
  #behind = false;
  #front: 0 | 1 = 0;
  readonly #runs: BlockRuns;
  #wake: () => void = () => {};

  constructor(
    private readonly port: MessagePort,
    readonly views: SharedViews<S>,
    readonly input: InputReader | null,
    private readonly inputWriter: InputWriter | null,
    readonly events: EventWriter | null,
    /** Our own reader of `events`' ring: what each state message forwards. */
    private readonly eventDrain: EventReader | null,
  ) {
    this.#runs = blockRuns(views.layout);
    port.onmessage = (event: MessageEvent<ToWorker>) => this.#receive(event.data);
  }

  inputRejected(): number {
    return this.inputWriter?.rejected ?? 0;
  }

  stateBuffers(): number {
    return this.#allocated;
  }

  /** The environment's publishes, into our own plain buffer (nothing contends there: Atomics work on it alike). */
  writer(world: Float32Array, now: () => number): SlotWriter<S> {
    return new SlotWriter(this.views, world, now, undefined, undefined, null, this.events);
  }

  /**
   * The host the loop sleeps with: the environment's clock, yield and timers, but sleeps on timers, cut short by
   * frame messages and control calls (no shared doorbell to wait on).
   */
  host(environment: WorkerHost): WorkerHost {
    return {
      clock: (anchor) => environment.clock(anchor),
      // timers only: without shared memory there is nothing to spin on
      sleep: (i32, index, value, ms) =>
        new Promise<SleepReport>((resolve) => {
          // a frame that came in since the loop read the doorbell: no sleep (all on this thread, so no race)
          if (Atomics.load(i32, index) !== value) {
            resolve(ENDED_AT_ONCE);
            return;
          }
          const timer = Number.isFinite(ms) ? setTimeout(done, Math.max(0, ms)) : undefined;
          const previous = this.#wake;
          const wake = (): void => done();
          const self = this;
          function done(): void {
            clearTimeout(timer);
            // whichever way the sleep ends, its wake-up goes (no chain of stale closures)
            if (self.#wake === wake) self.#wake = previous;
            resolve(SLEPT);
          }
          this.#wake = wake;
        }),
      yieldToEvents: () => environment.yieldToEvents(),
      every: (ms, fn) => environment.every(ms, fn),
      ...(environment.loopStarted === undefined ? {} : { loopStarted: () => environment.loopStarted!() }),
      ...(environment.loopEnded === undefined ? {} : { loopEnded: () => environment.loopEnded!() }),
    };
  }

  wake(): void {
    this.#wake();
  }

  published(front: 0 | 1): void {
    this.#front = front;
    this.#postState();
  }

  restamped(front: 0 | 1): void {
    this.#front = front;
    // held back: the state posted when a buffer returns carries the new times
    if (this.#behind) return;
    const slot = this.views.slots[front];
    this.port.postMessage({ type: 'restamp', meta: slot.metaWords.slice(), header: this.views.i32.slice(), taken: this.#taken() } satisfies ToMain);
  }

  /** Sends the header words (status, overloads, heartbeat) when they change outside a publish. */
  headerChanged(): void {
    this.port.postMessage({ type: 'header', header: this.views.i32.slice(), taken: this.#taken() } satisfies ToMain);
  }

  #taken(): number {
    return this.input?.taken ?? 0;
  }

  #take(): ArrayBuffer | null {
    const pooled = this.#pool.pop();
    if (pooled !== undefined) return pooled;
    if (this.#allocated >= MAX_STATE_BUFFERS) return null;
    this.#allocated++;
    return new ArrayBuffer(this.views.layout.blockBytes);
  }

  #postState(): void {
    const slot = this.views.slots[this.#front];
    // the page holds the state before this one only if it was the last posted
    const pair = slot.metaWords[META.PREV_TICK] !== this.#lastPostedTick;
    const needed = pair ? 2 : 1;
    if (MAX_STATE_BUFFERS - this.#out < needed) {
      this.#behind = true;
      return;
    }
    // the live entities only: the page reads a state's first COUNT entities as its current state and, a
    // publish later, its first PREV_COUNT (the same number) as the previous; a pooled buffer's older values past
    // that are never read (entities at or past PREV_COUNT snap), as in the shared buffer's blocks
    const block = this.#take()!;
    copyAcross(slot.currentBlock, new Float32Array(block), this.#runs, slot.metaWords[META.COUNT]!);
    let previousBlock: ArrayBuffer | null = null;
    if (pair) {
      previousBlock = this.#take()!;
      copyAcross(slot.previousBlock, new Float32Array(previousBlock), this.#runs, slot.metaWords[META.PREV_COUNT]!);
    }
    this.#out += needed;
    this.#behind = false;
    this.#lastPostedTick = slot.metaWords[META.CUR_TICK]!;
    // the events committed since the last state message: every tick up to this state's, ahead of it
    const events = this.eventDrain?.drain() ?? null;
    const message: ToMain = {
      type: 'state',
      block,
      previousBlock,
      meta: slot.metaWords.slice(),
      header: this.views.i32.slice(),
      taken: this.#taken(),
      events,
      eventsLost: this.events?.lost ?? 0,
    };
    const transfer: Transferable[] = previousBlock === null ? [block] : [block, previousBlock];
    if (events !== null) transfer.push(events.buffer as ArrayBuffer);
    this.port.postMessage(message, transfer);
  }

  #receive(message: ToWorker): void {
    switch (message.type) {
      case 'frame':
        // the same rule as the shared buffer's doorbell: wake the loop unless its sleep plan serves this frame
        if (writeNextFrame(this.views, message.time)) this.#wake();
        return;
      case 'return':
        this.#out--;
        if (message.block.byteLength === this.views.layout.blockBytes) this.#pool.push(message.block);
        else this.#allocated--;
        // the page caught up: it gets the newest state now
        if (this.#behind) this.#postState();
        return;
      case 'input': {
        const writer = this.inputWriter;
        if (writer === null) return;
        const stride = INPUT_RECORD_HEAD + writer.layout.payloadWidth;
        for (let i = 0; i < message.count; i++) {
          const base = i * stride;
          // the page sends no more than this ring has room for (its flow control); a full ring would refuse
          // and count rather than overwrite: the worker's stats report it
          writer.pushPayload(message.events[base]!, message.events[base + 1]!, message.events.subarray(base + INPUT_RECORD_HEAD, base + stride));
        }
        return;
      }
    }
  }
}
