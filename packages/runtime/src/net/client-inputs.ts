/**
 * Clients' input events on the server (ARCHITECTURE.md, "Multiplayer"): each event a client sends is checked
 * against what the game allows and what the server can take, then pushed into the server runtime's input ring,
 * its player in the first payload value, so the simulation's step reads it as `tick.input` like a local key.
 *
 * Every check is per event and counted by reason; nothing a client sends can throw here or reach another client:
 * - `code`: not a whole number from 0 to `codes` − 1 (the game's own codes);
 * - `when`: a time more than `maxAheadMs` past the server's now (a client draws behind the server, never ahead:
 *   a time in the future would hold every later event of every player back, since the ring keeps times in
 *   order) or more than `maxAgeMs` before it;
 * - `flood`: past the client's allowance (a bucket of `perSecond` events that refills at `perSecond` a second);
 * - `full`: the server's input ring was full (the simulation is behind): refused, never dropped later.
 *
 * A client sends each event in more than one message (net/network-client.ts: in INPUT_REPEATS messages in a
 * row), numbered, so one lost message loses nothing: each number is taken once (`inputRepeats` counts the copies
 * let go), and a number skipped is counted in `inputsMissed` until it comes (one of the 32 below the highest may
 * come late, overtaken: it is taken then, its time clamped up to the ring's last). Each connection is a new
 * `ClientInputs`: the first message on it sets where the numbers stand.
 */
import type { InputWriter } from '../core/input-writer.ts';
import { InputLedger } from './input-ledger.ts';
import type { InputBatch } from './wire.ts';

export type InputRefusal = 'code' | 'when' | 'flood' | 'full';

/** What a client's inputs have come to: taken, refused by reason, and the last refusal in words. */
export interface InputCounts {
  inputs: number;
  /** Events that came again (a client sends each more than once) and were let go: not taken twice. */
  inputRepeats: number;
  /** Events the client numbered that came in none of the messages that carried them (lost on the way). */
  inputsMissed: number;
  readonly refused: Record<InputRefusal, number>;
  lastRefusal: string | null;
}

export interface ClientInputOptions {
  /** The codes a client may send: whole numbers from 0 to `codes` − 1. */
  readonly codes: number;
  /** Events a client may send a second, and the burst it may send at once. Default DEFAULT_INPUTS_PER_SECOND. */
  readonly perSecond?: number;
  /** How far before the server's now an event may be, ms (clients draw a playout delay behind). Default 2000. */
  readonly maxAgeMs?: number;
  /** How far past the server's now an event may be, ms (clock error only). Default 50. */
  readonly maxAheadMs?: number;
}

/** Events a second a client may send by default: two a frame at 60 Hz, past any human's key rate. */
export const DEFAULT_INPUTS_PER_SECOND = 120;

/** The checked options, shared by every client of a publisher. */
export interface InputRules {
  readonly codes: number;
  readonly perSecond: number;
  readonly maxAgeMs: number;
  readonly maxAheadMs: number;
}

export function inputRules(options: ClientInputOptions, writer: InputWriter | null): InputRules {
  if (writer === null) throw new Error("steadyframe: the publisher takes clients' inputs into the runtime's input ring, and this runtime has none (it was made with input: false)");
  if (writer.layout.payloadWidth < 1) {
    throw new RangeError('steadyframe: clients\' inputs need an input ring with a payload width of at least 1: its first value says which player sent the event');
  }
  const rules = {
    codes: options.codes,
    perSecond: options.perSecond ?? DEFAULT_INPUTS_PER_SECOND,
    maxAgeMs: options.maxAgeMs ?? 2000,
    maxAheadMs: options.maxAheadMs ?? 50,
  };
  for (const [name, value] of Object.entries(rules)) {
    if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value)) || (name === 'codes' && !Number.isInteger(value))) {
      throw new RangeError(`steadyframe: the publisher's input.${name} must be a number of at least 0${name === 'codes' ? ' (a whole number of codes)' : ''}; got ${String(value)}`);
    }
  }
  return rules;
}

/** One client's inputs: its player number, its allowance, and the ring they go into. */
export class ClientInputs {
  /** Events the client may still send now (refilled with time). */
  #allowance: number;
  #refilledAt: number;
  /** The payload pushed: the player, then the client's values (made once). */
  readonly #payload: Float64Array;
  /** One past the highest event number that arrived (-1: no message yet). */
  #next = -1;
  /** Which of the 32 numbers below `#next` arrived: bit k for `#next` − 1 − k (a late one is still taken). */
  #seen = 0;
  /** Each event taken: its ring sequence and this client's number for it, until a state consumes it. */
  readonly #ledger: InputLedger;

  constructor(
    readonly player: number,
    private readonly rules: InputRules,
    private readonly writer: InputWriter,
    private readonly now: () => number,
  ) {
    this.#allowance = rules.perSecond;
    this.#refilledAt = now();
    this.#payload = new Float64Array(writer.layout.payloadWidth);
    this.#ledger = new InputLedger(writer.layout.capacity);
  }

  /**
   * The newest of this client's event numbers a state consumed, given the state's INPUTS_THROUGH (one past the
   * ring sequence of the last event its ticks consumed); -1 before any (net/input-ledger.ts).
   */
  reflected(through: number): number {
    return this.#ledger.reflect(through);
  }

  /**
   * Checks and pushes a batch's events: counts those taken in `counts.inputs`, each refusal in `counts.refused`,
   * and says the last refusal in `counts.lastRefusal`.
   */
  take(batch: InputBatch, counts: InputCounts): void {
    const refused = counts.refused;
    const { rules, writer } = this;
    const now = this.now();
    this.#allowance = Math.min(rules.perSecond, this.#allowance + ((now - this.#refilledAt) * rules.perSecond) / 1000);
    this.#refilledAt = now;
    const stride = 2 + batch.width;
    const payload = this.#payload;
    const width = Math.min(batch.width, payload.length - 1);
    let why: string | null = null;
    let taken = 0;
    for (let i = 0; i < batch.count; i++) {
      if (!this.#arrived((batch.first + i) >>> 0, counts)) {
        counts.inputRepeats++;
        continue;
      }
      const at = i * stride;
      const time = batch.values[at]!;
      const code = batch.values[at + 1]!;
      if (this.#allowance < 1) {
        refused.flood++;
        why = `player ${this.player} sent more than ${rules.perSecond} input events a second`;
        continue;
      }
      this.#allowance--;
      if (!Number.isInteger(code) || code < 0 || code >= rules.codes) {
        refused.code++;
        why = `player ${this.player} sent input code ${code}; the game's codes are 0 to ${rules.codes - 1}`;
        continue;
      }
      if (time > now + rules.maxAheadMs || time < now - rules.maxAgeMs) {
        refused.when++;
        why = `player ${this.player} sent an input stamped ${(time - now).toFixed(1)} ms from the server's now (allowed: ${-rules.maxAgeMs} to +${rules.maxAheadMs})`;
        continue;
      }
      payload[0] = this.player;
      for (let j = 0; j < width; j++) payload[1 + j] = batch.values[at + 2 + j]!;
      for (let j = 1 + width; j < payload.length; j++) payload[j] = 0;
      const sequence = writer.nextSequence;
      if (writer.pushPayload(time, code, payload)) {
        this.#ledger.note(sequence, (batch.first + i) >>> 0);
        taken++;
      } else {
        refused.full++;
        why = "the server's input ring is full (the simulation is behind): an input was refused";
      }
    }
    counts.inputs += taken;
    if (why !== null) counts.lastRefusal = why;
  }

  /**
   * Whether event `sequence` is new: past the highest so far (the numbers skipped are counted missed), or one of
   * those skipped arriving late (a message overtaken by a newer one; no longer missed). False for a copy.
   */
  #arrived(sequence: number, counts: InputCounts): boolean {
    // how far past `#next` it is, mod 2^32 (negative: at or below the highest so far)
    const ahead = this.#next === -1 ? 0 : (sequence - this.#next) | 0;
    if (ahead >= 0) {
      counts.inputsMissed += ahead;
      this.#seen = ahead >= 31 ? 1 : ((this.#seen << (ahead + 1)) | 1) >>> 0;
      this.#next = (sequence + 1) >>> 0;
      return true;
    }
    const below = -ahead - 1;
    if (below >= 32 || (this.#seen & (1 << below)) !== 0) return false;
    this.#seen = (this.#seen | (1 << below)) >>> 0;
    counts.inputsMissed--;
    return true;
  }
}
