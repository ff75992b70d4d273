/**
 * The message transport, page side (see worker.ts beside it): used when the page is not cross-origin
 * isolated. Keeps the last two states the worker transferred as the pair to blend and returns the ones before
 * them for reuse, mirrors the worker's header words, and carries frame times and input to the worker.
 *
 * Input flow control: the input ring stays on this side (a plain buffer) and its READ word is the worker's
 * count of events its ticks have taken, which comes back with every message. An event sent is not freed until
 * a tick has taken it, so the ring refuses a push (false, counted) exactly when the worker's ring, of the same
 * capacity, could not hold it: nothing accepted here is ever dropped there.
 *
 * Game events go the other way inside the state messages: the worker commits them into a ring of its own (in the
 * flip, as the shared transport does) and each state message carries those committed since the last, which are
 * relayed into a ring of the page's before the state becomes the pair. Frames present them as the shared
 * transport's; a page ring that fills loses events as the worker's would (counted, reported).
 */
import type { MessageAttachConfig } from '../../contracts/remote.ts';
import type { PageTransport, PageTransportContext } from '../../contracts/transport.ts';
import { allocateEventRing } from '../../core/event-ring.ts';
import { EventReader } from '../../core/event-reader.ts';
import { EventWriter } from '../../core/event-writer.ts';
import { allocateInputRing, INPUT_RECORDS_OFFSET, INPUT_RING, RECORD } from '../../core/input-ring.ts';
import { InputWriter } from '../../core/input-writer.ts';
import { fieldViews, gameView, generationView, I32, META_WORDS, type Layout, type StatePair } from '../../core/layout.ts';
import type { FieldViews, Schema } from '../../core/schema.ts';
import { copyMeta, type ReadLockStats, type StateSource } from '../../core/slot-reader.ts';
import { INPUT_RECORD_HEAD, type ToMain, type ToWorker } from './messages.ts';

const NO_RECORDS = new Float64Array(0);

interface State<S extends Schema> {
  readonly buffer: ArrayBuffer;
  readonly block: Float32Array;
  readonly fields: FieldViews<S>;
  readonly generation: Uint32Array;
  readonly game: Float64Array;
}

export function openMessagePage<S extends Schema>(context: PageTransportContext<S>): PageTransport<S, MessageAttachConfig> {
  const { layout, anchor, input, events } = context;
  const channel = new MessageChannel();
  const source = new MessageSource<S>(layout, channel.port1, input, events);
  return {
    kind: 'message',
    attach: { kind: 'message', port: channel.port2, clockAnchor: anchor, inputRing: input, eventRing: events, signature: layout.signature, capacity: layout.capacity },
    transfer: [channel.port2],
    source,
    header: source.header,
    views: null,
    simd: null,
    input: source.input,
    events: source.events,
    expectFrame: (time) => source.expectFrame(time),
    inputPushed: () => source.inputPushed(),
    firstState: () => source.firstState,
    close: () => source.close(),
  };
}

/** The pair of the last two states received, the header mirror and the input flow control. */
class MessageSource<S extends Schema> implements StateSource<S> {
  readonly stats: ReadLockStats = { acquires: 0, spins: 0, maxSpins: 0, misses: 0 };
  /** The worker's Int32 header words as it last sent them (STATUS, OVERLOADS, HEARTBEAT...). */
  readonly header = new Int32Array(16);
  readonly input: InputWriter | null;
  /** The page's event ring (a plain buffer): the worker's events are relayed into it as they arrive. */
  readonly events: EventReader | null;
  readonly #eventRelay: EventWriter | null;
  readonly #ring: { readonly i32: Int32Array; readonly f64: Float64Array; readonly mask: number; readonly stride: number; readonly width: number } | null;
  readonly #metaWords = new Float64Array(META_WORDS);
  #previous: State<S> | null = null;
  #current: State<S> | null = null;
  #pair: { -readonly [K in keyof StatePair<S>]: StatePair<S>[K] } | null = null;
  /** The worker's PUBLISH_SEQ as of the newest state received. */
  #publishes = 0;
  /** Input events sent to the worker so far, mod 2^32 (a count of the ring's records, like WRITE and READ). */
  #sent = 0;
  #flushQueued = false;
  /** Resolves when the first state message has made a pair (`firstState`). */
  readonly firstState: Promise<void>;
  #gotFirst: () => void = () => {};
  readonly #flush = (): void => {
    this.#flushQueued = false;
    this.flushInput();
  };

  constructor(
    private readonly layout: Layout,
    private readonly port: MessagePort,
    input: { readonly capacity: number; readonly payloadWidth: number } | null,
    events: { readonly capacity: number; readonly payloadWidth: number } | null,
  ) {
    this.firstState = new Promise<void>((resolve) => (this.#gotFirst = resolve));
    const eventRing = events === null ? null : allocateEventRing(events.capacity, events.payloadWidth, false);
    this.events = eventRing === null ? null : new EventReader(eventRing);
    this.#eventRelay = eventRing === null ? null : new EventWriter(eventRing);
    if (input === null) {
      this.input = null;
      this.#ring = null;
    } else {
      const buffer = allocateInputRing(input.capacity, input.payloadWidth, false);
      this.input = new InputWriter(buffer);
      const { capacity, recordWords, payloadWidth } = this.input.layout;
      this.#ring = {
        i32: new Int32Array(buffer, 0, INPUT_RECORDS_OFFSET / 4),
        f64: new Float64Array(buffer, INPUT_RECORDS_OFFSET, capacity * recordWords),
        mask: capacity - 1,
        stride: recordWords,
        width: payloadWidth,
      };
    }
    port.onmessage = (event: MessageEvent<ToMain>) => this.#receive(event.data);
  }

  acquire(): StatePair<S> | null {
    if (this.#pair === null) {
      this.stats.misses++;
      return null;
    }
    this.stats.acquires++;
    return this.#pair;
  }

  release(): void {}

  publishCount(): number {
    return this.#publishes >>> 0;
  }

  /** Tells the worker when the next frame is due (the shared transport writes NEXT_FRAME instead). */
  expectFrame(time: number): boolean {
    this.flushInput();
    this.#post({ type: 'frame', time });
    return false;
  }

  /** Input was pushed: send it in one message at the end of this task. */
  inputPushed(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(this.#flush);
  }

  /** Sends the events pushed since the last call in one message. They stay in the ring until the worker takes them. */
  flushInput(): void {
    const ring = this.#ring;
    if (ring === null) return;
    const write = Atomics.load(ring.i32, INPUT_RING.WRITE) >>> 0;
    const count = (write - this.#sent) >>> 0;
    if (count === 0) return;
    const stride = INPUT_RECORD_HEAD + ring.width;
    // transferred: each batch gets a fresh buffer
    const events = new Float64Array(count * stride);
    for (let i = 0; i < count; i++) {
      const from = (((this.#sent + i) >>> 0) & ring.mask) * ring.stride;
      const to = i * stride;
      events[to] = ring.f64[from + RECORD.TIME]!;
      events[to + 1] = ring.f64[from + RECORD.CODE]!;
      events[to + 2] = ring.f64[from + RECORD.SEQUENCE]!;
      for (let j = 0; j < ring.width; j++) events[to + INPUT_RECORD_HEAD + j] = ring.f64[from + RECORD.PAYLOAD + j]!;
    }
    this.#sent = write;
    this.#post({ type: 'input', events, count }, [events.buffer as ArrayBuffer]);
  }

  close(): void {
    this.port.onmessage = null;
    this.port.close();
  }

  #post(message: ToWorker, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }

  #state(buffer: ArrayBuffer): State<S> {
    return {
      buffer,
      block: new Float32Array(buffer),
      fields: fieldViews<S>(buffer, 0, this.layout),
      generation: generationView(buffer, 0, this.layout),
      game: gameView(buffer, 0, this.layout),
    };
  }

  #giveBack(state: State<S> | null): void {
    if (state !== null) this.#post({ type: 'return', block: state.buffer }, [state.buffer]);
  }

  #receive(message: ToMain): void {
    this.header.set(message.header);
    // events the worker's ticks have taken are free again here (this thread is the ring's only user now)
    if (this.#ring !== null) Atomics.store(this.#ring.i32, INPUT_RING.READ, message.taken | 0);
    if (message.type === 'header') return;
    // the counts clamped to the capacity, as the shared reader does: the page trusts no count past its buffers
    copyMeta(message.meta, this.#metaWords, this.layout.capacity);
    if (message.type === 'restamp') return;
    // the state's events first: a frame that reads this state finds every event of its ticks here
    if (this.#eventRelay !== null) {
      // (with none, still: a loss here not yet reported goes out as soon as there is room)
      this.#eventRelay.relay(message.events ?? NO_RECORDS, this.#eventRelay.layout.recordWords);
      this.events!.lostElsewhere = message.eventsLost;
    }
    const state = this.#state(message.block);
    if (message.previousBlock !== null) {
      // a whole pair: the page had fallen behind (or this is the first): both states it held go back
      this.#giveBack(this.#previous);
      if (this.#current !== this.#previous) this.#giveBack(this.#current);
      this.#previous = this.#state(message.previousBlock);
    } else {
      // the state before the previous one is done with: back to the worker's pool
      const old = this.#previous;
      this.#previous = this.#current ?? state;
      if (old !== this.#previous) this.#giveBack(old);
    }
    this.#current = state;
    this.#publishes = message.header[I32.PUBLISH_SEQ]!;
    const previous = this.#previous;
    this.#pair = {
      previous: previous.fields,
      current: state.fields,
      previousGeneration: previous.generation,
      currentGeneration: state.generation,
      previousBlock: previous.block,
      currentBlock: state.block,
      previousGame: previous.game,
      currentGame: state.game,
      metaWords: this.#metaWords,
    };
    this.#gotFirst();
  }
}
