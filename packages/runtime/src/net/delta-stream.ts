/**
 * Both ends of the delta stream (net/snapshot-codes.ts says why a baseline the server picks is one the client has):
 * the server's encoder, which quantises each state once and encodes it once per baseline in use, and the client's
 * decoder, which keeps what it decoded as baselines and says which tick to acknowledge.
 *
 * ```text
 *  server: push(state) ── quantise into the window ── messageFor(client's acknowledged tick, and the one before):
 *            the window has it ── a delta against it, the motion since the one before carried on (encoded once per
 *            pair of baselines per push, shared by every client on it)
 *            it does not (none yet, or BASELINE_WINDOW sends old) ── the full snapshot (encoded once per push)
 *  client: decode(bytes) ── against window.find(its baseline) ── kept ── ack(tick)
 * ```
 */
import { BASELINE_WINDOW, BaselineWindow, CLIENT_BASELINE_WINDOW, quantizeState, type SnapshotCodes } from './snapshot-codes.ts';
import { MAX_BASELINE_AGE, SNAPSHOT_HEAD_BYTES } from './wire-head.ts';
import { decodeDelta, encodeDelta, SnapshotCoder, type SnapshotHead } from './wire.ts';
import type { WireFormat } from './wire-head.ts';

export interface DeltaEncoderStats {
  /** Bodies encoded: full ones, and deltas. */
  full: number;
  deltas: number;
}

export class DeltaEncoder {
  readonly window: BaselineWindow;
  readonly stats: DeltaEncoderStats = { full: 0, deltas: 0 };
  readonly #coder: SnapshotCoder;
  #head: SnapshotHead | null = null;
  #state: SnapshotCodes | null = null;
  /** This push's messages by their baselines' ticks ('': the full one). */
  readonly #messages = new Map<string, Uint8Array>();

  /** `capacity`: the most entities a state pushed has (the layout's by default; a client's view, fewer). */
  constructor(
    readonly format: WireFormat,
    capacity = format.layout.capacity,
  ) {
    this.window = new BaselineWindow(format, BASELINE_WINDOW, capacity);
    this.#coder = new SnapshotCoder(format, capacity);
  }

  /** The newest pushed state (its codes), or null. */
  get state(): SnapshotCodes | null {
    return this.#state;
  }

  /** The newest pushed state's tick, or −1. */
  get tick(): number {
    return this.#head?.tick ?? -1;
  }

  /** A new state to send (its tick past every one pushed before): quantised once, into the window. */
  push(head: SnapshotHead, block: Float32Array, generation: Uint32Array): void {
    this.pushCodes(head, (entry) => quantizeState(this.format, block, generation, head.count, entry));
  }

  /** A new state to send, its codes written by `fill` (`count` of them: head.count) into the window's entry. */
  pushCodes(head: SnapshotHead, fill: (entry: SnapshotCodes) => void): void {
    if (head.tick <= this.tick) throw new RangeError(`steadyframe: a snapshot's tick (${head.tick}) must be past the last one sent (${this.tick})`);
    const entry = this.window.take();
    fill(entry);
    entry.count = head.count;
    entry.tick = head.tick;
    this.window.put(entry);
    this.#head = head;
    this.#state = entry;
    this.#messages.clear();
  }

  /**
   * Whether `tick`, a client's acknowledgement, can be its baseline: the window has it. A client keeps the newest
   * such tick (`ClientBaseline`).
   */
  has(tick: number): boolean {
    return this.window.find(tick) !== null;
  }

  /** Whether the newest state goes to a client whose newest acknowledged tick is `acked` as a delta. */
  isDelta(acked: number): boolean {
    return this.#baseOf(acked) !== null;
  }

  #baseOf(acked: number): SnapshotCodes | null {
    const tick = this.#head?.tick ?? -1;
    return acked < 0 || acked >= tick || tick - acked > MAX_BASELINE_AGE ? null : this.window.find(acked);
  }

  /**
   * The newest state, for a client whose newest acknowledged tick is `acked` (−1: none) and one it acknowledged
   * before, `older` (−1: none): a delta when the window has `acked` (BASELINE_WINDOW − 1 sends old at most), its
   * motion carried on from `older` when the window has that too.
   */
  messageFor(acked: number, older = -1): Uint8Array {
    if (this.#head === null) throw new Error('steadyframe: nothing pushed to send');
    const base = this.#baseOf(acked);
    const before = base === null || older < 0 || older >= acked ? null : this.#baseOf(older);
    const key = base === null ? '' : before === null ? `${acked}` : `${acked}:${older}`;
    let message = this.#messages.get(key);
    if (message === undefined) {
      message = encodeDelta(this.#coder, this.#head, this.#state!, base, before);
      this.#messages.set(key, message);
      if (base === null) this.stats.full++;
      else this.stats.deltas++;
    }
    return message;
  }
}

/**
 * One client's baselines on the server: the newest tick it acknowledged that the window had when it said so, and
 * the one it acknowledged before that (the motion between them carries on: net/delta-body.ts).
 */
export class ClientBaseline {
  acked = -1;
  older = -1;

  /** Takes an acknowledged tick (an older one than kept, or one the encoder lacks, changes nothing). */
  ack(encoder: DeltaEncoder, tick: number): void {
    if (tick <= this.acked || !encoder.has(tick)) return;
    this.older = this.acked;
    this.acked = tick;
  }

  /** The newest state for this client. */
  message(encoder: DeltaEncoder): Uint8Array {
    return encoder.messageFor(this.acked, this.older);
  }
}

export class DeltaDecoder {
  readonly window: BaselineWindow;
  readonly #coder: SnapshotCoder;

  constructor(readonly format: WireFormat) {
    this.window = new BaselineWindow(format, CLIENT_BASELINE_WINDOW);
    this.#coder = new SnapshotCoder(format);
  }

  /** Whether a snapshot of `tick` was decoded and is kept (a copy needs no decoding). */
  has(tick: number): boolean {
    return this.window.find(tick) !== null;
  }

  /**
   * Decodes a snapshot and keeps its state as a baseline. Returns the head and the state (valid until BASELINE_WINDOW
   * newer ticks are decoded), and whether it is kept (one older than a full window's every tick is not: do not
   * acknowledge it); null for a snapshot too late to decode (its baseline was let go: CLIENT_BASELINE_WINDOW newer ones
   * came first). Throws `WireError`, keeping nothing.
   */
  decode(bytes: Uint8Array): { readonly head: SnapshotHead; readonly state: SnapshotCodes; readonly kept: boolean } | null {
    // a delta against baselines let go for newer snapshots: late (the head is checked on decoding)
    if (bytes.byteLength >= SNAPSHOT_HEAD_BYTES) {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const tick = view.getUint32(16, true);
      const oldest = Math.max(view.getUint16(40, true), view.getUint16(42, true));
      if (oldest !== 0 && this.window.passed(tick - oldest)) return null;
    }
    const entry = this.window.take();
    let head: SnapshotHead;
    try {
      head = decodeDelta(this.#coder, bytes, this.window, entry);
    } catch (error) {
      this.window.release(entry);
      throw error;
    }
    const kept = this.window.put(entry);
    return { head, state: entry, kept };
  }

  /** Forgets every baseline (a server that started over numbers its ticks anew). */
  clear(): void {
    this.window.clear();
  }
}
