/**
 * The message transport: how the worker publishes when the page is not cross-origin isolated, so there is no
 * SharedArrayBuffer. The worker keeps the same memory map in a plain ArrayBuffer of its own and runs the same
 * loop; after each publish it copies the new state's live entities into a pooled ArrayBuffer and transfers it to the main
 * thread, which keeps the last two (previous and current) and sends the one before back for reuse: a third
 * buffer is always in flight, so neither side ever copies a state it receives.
 *
 * ```text
 *   worker                                            main thread
 *   publish tick k -> copy into free buffer C ─── state(C, meta, header) ───▶  previous = B, current = C
 *                                              ◀──────── return(A) ─────────  (A, the old previous, goes back)
 *   pool: A                                    ◀── frame(time), input(events) ── every frame
 * ```
 *
 * Frame times arrive as messages and wake the loop (no Atomics.waitAsync without shared memory); input
 * events arrive in batches and go into a ring of the worker's own, read by the ticks as usual.
 */
import { createSharedClock } from '../core/clock.ts';
import { InputWriter } from '../core/input-ring.ts';
import { META, type SharedViews } from '../core/layout.ts';
import { blockRuns, copyAcross, type BlockRuns } from '../core/publish-copy.ts';
import type { Schema } from '../core/schema.ts';
import { writeNextFrame, type SlotWriter } from '../core/slots.ts';
import { INPUT_RECORD_HEAD, type ToMain, type ToWorker } from '../core/messages.ts';
import type { SimulationHost } from './simulation.ts';
import { BLOCKED, SLEPT_ASYNC, type SleepReport } from './sleep-report.ts';

export class WorkerMessageTransport<S extends Schema> {
  readonly #pool: ArrayBuffer[] = [];
  readonly #runs: BlockRuns;
  #wake: () => void = () => {};

  constructor(
    private readonly port: MessagePort,
    private readonly views: SharedViews<S>,
    private readonly writer: SlotWriter<S>,
    private readonly input: InputWriter | null,
  ) {
    this.#runs = blockRuns(views.layout);
    writer.onChange = (what) => (what === 'publish' ? this.#postState() : this.#postRestamp());
    port.onmessage = (event: MessageEvent<ToWorker>) => this.#receive(event.data);
  }

  /** The host the loop sleeps with: timers, cut short by frame messages and control calls. */
  host(): SimulationHost {
    const channel = new MessageChannel();
    const waiting: Array<() => void> = [];
    channel.port1.onmessage = () => waiting.shift()?.();
    return {
      clock: createSharedClock,
      // timers only: without shared memory there is nothing to spin on
      sleep: (i32, index, value, ms) =>
        new Promise<SleepReport>((resolve) => {
          // a frame that came in since the loop read the doorbell: no sleep (all on this thread, so no race)
          if (Atomics.load(i32, index) !== value) {
            resolve(BLOCKED);
            return;
          }
          const timer = Number.isFinite(ms) ? setTimeout(done, Math.max(0, ms)) : undefined;
          const previous = this.#wake;
          const wake = (): void => done();
          const transport = this;
          function done(): void {
            clearTimeout(timer);
            // whichever way the sleep ends, its wake-up goes (no chain of stale closures)
            if (transport.#wake === wake) transport.#wake = previous;
            resolve(SLEPT_ASYNC);
          }
          this.#wake = wake;
        }),
      yieldToEvents: () =>
        new Promise<void>((resolve) => {
          waiting.push(resolve);
          channel.port2.postMessage(0);
        }),
      every(ms, fn) {
        const handle = setInterval(fn, ms);
        return () => clearInterval(handle);
      },
      wake: () => this.#wake(),
    };
  }

  /** Sends the header words (status, overloads, heartbeat) when they change outside a publish. */
  postHeader(): void {
    this.port.postMessage({ type: 'header', header: this.views.i32.slice() } satisfies ToMain);
  }

  #postState(): void {
    const front = this.views.slots[this.writer.front];
    const blockBytes = this.views.layout.blockBytes;
    const buffer = this.#pool.pop() ?? new ArrayBuffer(blockBytes);
    // the live entities only: the page reads a state's first COUNT entities as its current state and, a
    // publish later, its first PREV_COUNT (the same number) as the previous; a pooled buffer's older values past
    // that are never read (entities at or past PREV_COUNT snap), as in the shared buffer's blocks
    copyAcross(front.currentBlock, new Float32Array(buffer), this.#runs, front.metaWords[META.COUNT]!);
    const message: ToMain = { type: 'state', block: buffer, meta: front.metaWords.slice(), header: this.views.i32.slice() };
    this.port.postMessage(message, [buffer]);
  }

  #postRestamp(): void {
    const front = this.views.slots[this.writer.front];
    this.port.postMessage({ type: 'restamp', meta: front.metaWords.slice(), header: this.views.i32.slice() } satisfies ToMain);
  }

  #receive(message: ToWorker): void {
    switch (message.type) {
      case 'frame':
        // the same rule as the shared buffer's doorbell: wake the loop unless its sleep plan serves this frame
        if (writeNextFrame(this.views, message.time)) this.#wake();
        return;
      case 'return':
        if (message.block.byteLength === this.views.layout.blockBytes) this.#pool.push(message.block);
        return;
      case 'input': {
        const input = this.input;
        if (input === null) return;
        const stride = INPUT_RECORD_HEAD + input.layout.payloadWidth;
        const payload = new Float64Array(input.layout.payloadWidth);
        for (let i = 0; i < message.count; i++) {
          const base = i * stride;
          payload.set(message.events.subarray(base + INPUT_RECORD_HEAD, base + stride));
          // a full ring refuses (and counts) rather than overwrite: the worker's stats report it
          input.pushPayload(message.events[base]!, message.events[base + 1]!, payload);
        }
        return;
      }
    }
  }
}

