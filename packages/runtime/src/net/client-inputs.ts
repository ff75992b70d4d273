/**
 * Clients' input events on the server (ARCHITECTURE.md, "Multiplayer"): each event a client sends is checked
 * against what the game allows and what the server can take, then pushed into the server runtime's input ring,
 * its player in the first payload value, so the simulation's step reads it as `tick.input` like a local key.
 *
 * Every check is per event and counted by reason; nothing a client sends can throw here or reach another client:
 * - `code`: not a whole number from 0 to `codes` − 1 (the game's own codes);
 * - `when`: made at a time (the client's render time) more than `maxAheadMs` past the server's now (a client
 *   draws behind the server, never ahead) or more than `maxAgeMs` before it; or due more than `maxLeadMs` past it;
 * - `flood`: past the client's allowance (a bucket of `perSecond` events that refills at `perSecond` a second);
 * - `full`: the server's input ring was full (the simulation is behind), or the client's schedule: refused,
 *   never dropped later.
 *
 * An event due past the next tick the simulation makes (a predicting client stamps it for the tick its prediction
 * put it in) waits in the client's schedule (net/input-schedule.ts) and goes into the ring once the tick before
 * its own is made, or its due time has come (`release`, from each publish); one due at a tick already made goes in at once, for the next
 * tick, and a predicted one (due past its render time) is counted `inputsLate`: the client's reconciliation
 * corrects what it predicted. Every event goes into the ring stamped with its due time.
 *
 * A client sends each event in more than one message (net/network-client.ts: in INPUT_REPEATS messages in a
 * row), numbered, so one lost message loses nothing: each number is taken once (`inputRepeats` counts the copies
 * let go), and a number skipped is counted in `inputsMissed` until it comes (one of the 32 below the highest may
 * come late, overtaken: it is taken then, its time clamped up to the ring's last). Each connection is a new
 * `ClientInputs`: the first message on it sets where the numbers stand.
 */
import type { InputWriter } from '../core/input-writer.ts';
import { INPUT_MADE_TIME } from './input-columns.ts';
import { InputLedger } from './input-ledger.ts';
import { InputSchedule } from './input-schedule.ts';
import { INPUT_RECORD_VALUES, type InputBatch } from './wire.ts';

export type InputRefusal = 'code' | 'when' | 'flood' | 'full';

/** What a client's inputs have come to: taken, refused by reason, and the last refusal in words. */
export interface InputCounts {
  inputs: number;
  /** Events that came again (a client sends each more than once) and were let go: not taken twice. */
  inputRepeats: number;
  /** Events the client numbered that came in none of the messages that carried them (lost on the way). */
  inputsMissed: number;
  /** Predicted events that came after the tick they were due at was made: taken for the next tick. */
  inputsLate: number;
  /** Events waiting in the client's schedule for their tick. */
  inputsHeld: number;
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
  /** How far past the server's now an event may be made, ms (clock error only). Default 50. */
  readonly maxAheadMs?: number;
  /**
   * How far past the server's now an event may be due, ms (a predicting client's one-way delay and margin).
   * Default 1000.
   */
  readonly maxLeadMs?: number;
  /**
   * Puts each event's made time (the client's render time when it made it, server ms) in payload value 1
   * (INPUT_MADE_TIME), the client's values after it, for lag compensation (`tick.rewind`). Needs a ring payload
   * width of at least 2. Default false: the client's values from payload value 1.
   */
  readonly madeTime?: boolean;
}

/** Events a second a client may send by default: two a frame at 60 Hz, past any human's key rate. */
export const DEFAULT_INPUTS_PER_SECOND = 120;

/** The checked options, shared by every client of a publisher. */
export interface InputRules {
  readonly codes: number;
  readonly perSecond: number;
  readonly maxAgeMs: number;
  readonly maxAheadMs: number;
  readonly maxLeadMs: number;
  readonly madeTime: boolean;
}

/** The server's ticks as the publisher last read them: when the newest was made (server ms), and a tick's ms. */
export interface ServerTicks {
  readonly made: number;
  readonly tickMs: number;
}

/** Events a client's schedule holds at most: a second of its allowance past its lead, within 16 and 4096. */
const scheduleCapacity = (rules: InputRules): number => Math.min(4096, Math.max(16, Math.ceil(rules.perSecond * (1 + rules.maxLeadMs / 1000))));

export function inputRules(options: ClientInputOptions, writer: InputWriter | null): InputRules {
  if (writer === null) throw new Error("steadyframe: the publisher takes clients' inputs into the runtime's input ring, and this runtime has none (it was made with input: false)");
  if (writer.layout.payloadWidth < 1) {
    throw new RangeError('steadyframe: clients\' inputs need an input ring with a payload width of at least 1: its first value says which player sent the event');
  }
  const madeTime = options.madeTime ?? false;
  if (typeof madeTime !== 'boolean') throw new TypeError(`steadyframe: the publisher's input.madeTime is true or false; got ${String(madeTime)}`);
  if (madeTime && writer.layout.payloadWidth < 2) {
    throw new RangeError(`steadyframe: input.madeTime puts the made time in payload value ${INPUT_MADE_TIME}, after the player: the runtime's input ring needs a payload width of at least 2 (it has ${writer.layout.payloadWidth})`);
  }
  const numbers = {
    codes: options.codes,
    perSecond: options.perSecond ?? DEFAULT_INPUTS_PER_SECOND,
    maxAgeMs: options.maxAgeMs ?? 2000,
    maxAheadMs: options.maxAheadMs ?? 50,
    maxLeadMs: options.maxLeadMs ?? 1000,
  };
  const rules = { ...numbers, madeTime };
  for (const [name, value] of Object.entries(numbers)) {
    if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value)) || (name === 'codes' && !Number.isInteger(value))) {
      throw new RangeError(`steadyframe: the publisher's input.${name} must be a number of at least 0${name === 'codes' ? ' (a whole number of codes)' : ''}; got ${String(value)}`);
    }
  }
  return rules;
}

/** One client's inputs: its player number, its allowance, its schedule and the ring they go into. */
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
  /** Events due past the next tick, until the tick before theirs is made. */
  readonly #schedule: InputSchedule;
  /** Predicted events whose tick was made before they went into the ring (on arrival, or held too long). */
  #late = 0;
  /**
   * Pushes a held event (made once: releasing allocates nothing). Its tick made already (the publisher read the
   * newest state after the simulation made more than one tick): late, to the next tick.
   */
  readonly #pushHeld = (due: number, code: number, payload: Float64Array, number: number): boolean => {
    if (due <= this.ticks.made) this.#late++;
    return this.#push(due, code, payload, number);
  };

  constructor(
    readonly player: number,
    private readonly rules: InputRules,
    private readonly writer: InputWriter,
    private readonly now: () => number,
    private readonly ticks: ServerTicks,
  ) {
    this.#allowance = rules.perSecond;
    this.#refilledAt = now();
    this.#payload = new Float64Array(writer.layout.payloadWidth);
    this.#ledger = new InputLedger(writer.layout.capacity);
    this.#schedule = new InputSchedule(writer.layout.payloadWidth, scheduleCapacity(rules));
  }

  /**
   * The newest of this client's event numbers a state consumed, given the state's INPUTS_THROUGH (one past the
   * ring sequence of the last event its ticks consumed); -1 before any (net/input-ledger.ts).
   */
  reflected(through: number): number {
    return this.#ledger.reflect(through);
  }

  /**
   * Pushes the held events whose tick is the next the simulation makes (due within a tick of the newest made,
   * `ticks`, or by now), in due order; updates `counts.inputsHeld`. Call it after each read of the newest state.
   */
  release(counts: InputCounts): void {
    const schedule = this.#schedule;
    if (schedule.size === 0) return;
    schedule.release(this.#nextTick(this.now()), this.#pushHeld);
    counts.inputsHeld = schedule.size;
    counts.inputsLate = this.#late;
  }

  /**
   * Checks a batch's events, and pushes or holds each taken: counts those taken in `counts.inputs`, each refusal
   * in `counts.refused`, and says the last refusal in `counts.lastRefusal`.
   */
  take(batch: InputBatch, counts: InputCounts): void {
    const refused = counts.refused;
    const { rules, ticks } = this;
    const now = this.now();
    this.#allowance = Math.min(rules.perSecond, this.#allowance + ((now - this.#refilledAt) * rules.perSecond) / 1000);
    this.#refilledAt = now;
    const stride = INPUT_RECORD_VALUES + batch.width;
    const payload = this.#payload;
    // the server's columns first (the player; the made time with `madeTime`), the client's values after them
    const own = rules.madeTime ? 2 : 1;
    const width = Math.min(batch.width, payload.length - own);
    const next = this.#nextTick(now);
    let why: string | null = null;
    let taken = 0;
    for (let i = 0; i < batch.count; i++) {
      const number = (batch.first + i) >>> 0;
      if (!this.#arrived(number, counts)) {
        counts.inputRepeats++;
        continue;
      }
      const at = i * stride;
      const due = batch.values[at]!;
      const time = batch.values[at + 1]!;
      const code = batch.values[at + 2]!;
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
      if (due > now + rules.maxLeadMs) {
        refused.when++;
        why = `player ${this.player} sent an input due ${(due - now).toFixed(1)} ms past the server's now (allowed: up to +${rules.maxLeadMs})`;
        continue;
      }
      payload[0] = this.player;
      if (own === 2) payload[INPUT_MADE_TIME] = time;
      for (let j = 0; j < width; j++) payload[own + j] = batch.values[at + INPUT_RECORD_VALUES + j]!;
      for (let j = own + width; j < payload.length; j++) payload[j] = 0;
      if (due > next) {
        if (this.#schedule.hold(due, code, payload, number)) taken++;
        else {
          refused.full++;
          why = `player ${this.player} has ${this.#schedule.capacity} inputs waiting for their ticks: an input was refused`;
        }
        continue;
      }
      // predicted for a tick already made: it goes to the next one, and the client's reconciliation corrects it
      if (due > time && due <= ticks.made) counts.inputsLate = ++this.#late;
      if (this.#push(due, code, payload, number)) taken++;
      else {
        refused.full++;
        why = "the server's input ring is full (the simulation is behind): an input was refused";
      }
    }
    counts.inputs += taken;
    counts.inputsHeld = this.#schedule.size;
    if (why !== null) counts.lastRefusal = why;
  }

  /**
   * Events due up to this time go into the ring now: the next tick's (within a tick of the newest made), or any
   * due by the server's now (its tick is being made, or the publisher has not read the newest yet).
   */
  #nextTick(now: number): number {
    return Math.max(this.ticks.made + this.ticks.tickMs, now);
  }

  /** Pushes one event into the ring, stamped with its due time, and notes it in the ledger; false when full. */
  #push(due: number, code: number, payload: Float64Array, number: number): boolean {
    const sequence = this.writer.nextSequence;
    if (!this.writer.pushPayload(due, code, payload)) return false;
    this.#ledger.note(sequence, number);
    return true;
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
