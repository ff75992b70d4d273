/**
 * The main thread's side of the message transport (see worker/message-transport.ts): used when the page is not
 * cross-origin isolated. Keeps the last two states the worker transferred as the pair to blend, returns the one
 * before them for reuse, mirrors the worker's header words, and carries frame times and input to the worker.
 * Behind the same `StateSource` as the shared buffer's lock-holding reader, so sampling does not know which.
 */
import { fieldViews, generationView, META_WORDS, type Layout, type StatePair } from '../core/layout.ts';
import type { InputReader, InputEvent } from '../core/input-ring.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import type { ReadLockStats, StateSource } from '../core/slots.ts';
import { INPUT_RECORD_HEAD, type ToMain, type ToWorker } from '../core/messages.ts';

interface State<S extends Schema> {
  readonly buffer: ArrayBuffer;
  readonly block: Float32Array;
  readonly fields: FieldViews<S>;
  readonly generation: Uint32Array;
}

export class MessageSource<S extends Schema> implements StateSource<S> {
  readonly stats: ReadLockStats = { acquires: 0, spins: 0, maxSpins: 0, misses: 0 };
  /** The worker's Int32 header words as it last sent them (STATUS, OVERLOADS, HEARTBEAT...). */
  readonly header = new Int32Array(16);
  readonly #metaWords = new Float64Array(META_WORDS);
  #previous: State<S> | null = null;
  #current: State<S> | null = null;
  #pair: { -readonly [K in keyof StatePair<S>]: StatePair<S>[K] } | null = null;
  #publishes = 0;
  #inputBatch: Float64Array = new Float64Array(0);
  #inputCount = 0;

  constructor(
    private readonly layout: Layout,
    private readonly port: MessagePort,
    /** The main thread's own input ring, drained into a message each frame. */
    private readonly input: InputReader | null,
  ) {
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
    return this.#publishes;
  }

  /** Tells the worker when the next frame is due (the shared transport writes NEXT_FRAME instead). */
  expectFrame(time: number): void {
    this.#post({ type: 'frame', time });
  }

  /** Sends the input events queued since the last call in one message. */
  flushInput(): void {
    const input = this.input;
    if (input === null || input.available() === 0) return;
    const stride = INPUT_RECORD_HEAD + input.layout.payloadWidth;
    const needed = input.available() * stride;
    if (this.#inputBatch.length < needed) this.#inputBatch = new Float64Array(needed);
    this.#inputCount = 0;
    input.take(Number.POSITIVE_INFINITY, this.#collect);
    // the batch is transferred: the next one gets a fresh buffer
    const events = this.#inputBatch;
    this.#inputBatch = new Float64Array(0);
    this.#post({ type: 'input', events, count: this.#inputCount }, [events.buffer as ArrayBuffer]);
  }

  readonly #collect = (event: InputEvent): void => {
    const stride = INPUT_RECORD_HEAD + event.width;
    const base = this.#inputCount++ * stride;
    const batch = this.#inputBatch;
    batch[base] = event.time;
    batch[base + 1] = event.code;
    batch[base + 2] = event.sequence;
    for (let j = 0; j < event.width; j++) batch[base + INPUT_RECORD_HEAD + j] = event.payload(j);
  };

  close(): void {
    this.port.onmessage = null;
    this.port.close();
  }

  #post(message: ToWorker, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }

  #receive(message: ToMain): void {
    this.header.set(message.header);
    if (message.type === 'header') return;
    if (message.type === 'restamp') {
      this.#metaWords.set(message.meta);
      return;
    }
    const block = new Float32Array(message.block);
    const state: State<S> = {
      buffer: message.block,
      block,
      fields: fieldViews<S>(message.block, 0, this.layout),
      generation: generationView(message.block, 0, this.layout),
    };
    const old = this.#previous;
    this.#previous = this.#current ?? state;
    this.#current = state;
    // the state before the previous one is done with: back to the worker's pool
    if (old !== null && old !== this.#previous) this.#post({ type: 'return', block: old.buffer }, [old.buffer]);
    this.#metaWords.set(message.meta);
    this.#publishes++;
    const previous = this.#previous;
    this.#pair = {
      previous: previous.fields,
      current: state.fields,
      previousGeneration: previous.generation,
      currentGeneration: state.generation,
      previousBlock: previous.block,
      currentBlock: state.block,
      metaWords: this.#metaWords,
    };
  }
}

