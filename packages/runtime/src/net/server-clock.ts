/**
 * The server's clock as a client sees it: the offset (server minus client, ms) estimated from pings, and
 * applied so that the server time the client reads neither runs backwards nor lurches. Pure: the caller passes
 * every time in (its own clock for a ping's `sent` and `received`, the server's stamps in between); no timers,
 * no I/O. A network worker owns one, feeds it each pong, and converts its own clock with `serverTime`.
 *
 * One ping exchange, and what it gives:
 *
 * ```text
 *  client   t0 ── up ──┐                    ┌── down ──▶ t3      (client clock: sent, received)
 *  server              t1 ───── work ───── t2                   (server clock: serverReceived, serverSent)
 *
 *  offset      θ = ((t1 − t0) + (t2 − t3)) / 2        exact when up = down
 *  round trip  δ = (t3 − t0) − (t2 − t1)              = up + down
 * ```
 *
 * When the two directions take different times θ is off by (up − down) / 2, and since both are at least 0 and
 * add up to δ, by at most δ / 2: the true offset lies in [θ − δ/2, θ + δ/2] whatever the route. Queueing (a
 * busy router, a Wi-Fi retry, a GC pause on either side) only ever adds delay, to one direction or the other,
 * so the exchange with the smallest round trip has the narrowest interval and is the truest. The estimate is
 * the θ of the smallest δ among recent samples: Cristian's algorithm, and NTP's clock filter (RFC 5905, which
 * keeps the lowest-delay of its last eight samples). An average would let every queued exchange pull it.
 *
 * Applying the estimate: the first one at once. After that, the clock jumps to the estimate when the gap between
 * them is more than `jumpMs` and the chosen sample proves the applied offset wrong (it lies outside that
 * sample's interval: a server restart, a laptop that slept, the clocks stepped). Any other gap is slewed, closed
 * at no more than `slewRate` ms per ms of client time, so server time as read advances at a rate within
 * [1 − slewRate, 1 + slewRate] of the client's clock. (On a link of 200 ms round trips the estimate itself
 * wanders by a few tens of ms as the window moves; that wander stays inside the intervals, so it does not jump.)
 *
 * ```text
 *  server time   ▲                     ╱
 *  as read       │               ╱    ╱
 *                │         ╱──╱──╱       slew: at most 0.5% faster or slower, never backwards
 *                │   ╱──╱                  jump: |estimate − applied| > jumpMs, and the applied offset lies
 *                └──────────────────────▶   outside the chosen sample's interval           (counted in `jumps`)
 * ```
 */
import { checkNumber } from '../core/describe-value.ts';

/** The four times of one ping exchange, ms: the client's clock for `sent` and `received`, the server's between. */
export interface PingSample {
  /** Client clock when the ping left (t0). */
  readonly sent: number;
  /** Server clock when the ping arrived (t1). */
  readonly serverReceived: number;
  /** Server clock when the pong left (t2). */
  readonly serverSent: number;
  /** Client clock when the pong arrived (t3). */
  readonly received: number;
}

export interface ServerClockOptions {
  /** Client ms of samples the estimate chooses from (the newest sample's `received` back). Default CLOCK_WINDOW_MS. */
  readonly windowMs?: number;
  /** The newest samples kept however old they are. Default CLOCK_KEEP_SAMPLES. */
  readonly keep?: number;
  /** A gap between estimate and applied offset beyond which the clock jumps (if proven), ms. Default CLOCK_JUMP_MS. */
  readonly jumpMs?: number;
  /** Most ms the applied offset moves per ms of client time while slewing. Default CLOCK_SLEW_RATE. */
  readonly slewRate?: number;
  /** Round trips above this are not used (counted in `slow`), ms. Default CLOCK_MAX_ROUND_TRIP_MS. */
  readonly maxRoundTripMs?: number;
}

export interface ServerClockStats {
  /** Whether a sample was accepted: `serverTime` is a number from then on. */
  readonly synced: boolean;
  /** Samples accepted, in all. */
  readonly samples: number;
  /** Samples refused as nonsense: a time not finite, `received` before `sent`, `serverSent` before `serverReceived`, a round trip below −CLOCK_STAMP_SLACK_MS. */
  readonly rejected: number;
  /** Samples refused as too slow to be useful (round trip above `maxRoundTripMs`): a stalled page or link. */
  readonly slow: number;
  /** Samples whose interval excluded an older one's: the clocks stepped, and the older samples were dropped. */
  readonly steps: number;
  /** Times the applied offset jumped to the estimate rather than slewing. */
  readonly jumps: number;
  /** Ms the last jump moved the applied offset by (0 before any). */
  readonly lastJump: number;
  /** Samples the estimate chooses from now. */
  readonly window: number;
  /** The applied offset, server minus client, ms (NaN before sync). */
  readonly offset: number;
  /** The estimate the applied offset moves toward, ms (NaN before sync). */
  readonly estimate: number;
  /** The round trip of the sample the estimate comes from, ms: the estimate is within half of it (NaN before sync). */
  readonly roundTrip: number;
}

/**
 * Client ms of samples the estimate picks from. Ten of the one-a-second pings (ping-schedule.ts), so one quiet
 * moment of the link in ten seconds is enough for a tight estimate; short enough that the drift between the
 * two clocks over it stays small (quartz clocks keep within about 100 ppm: 1 ms in 10 s).
 */
export const CLOCK_WINDOW_MS = 10_000;

/**
 * The newest samples kept whatever their age. A frozen page reads the pongs that waited for it all at once when
 * it wakes: those past CLOCK_MAX_ROUND_TRIP_MS are refused, but one that waited less is taken, and it is newer
 * than every fast sample by the whole freeze. Keeping the newest four keeps the fast ones from before the freeze
 * in the window until fresh pings replace them, rather than leaving that one late pong alone in it.
 */
export const CLOCK_KEEP_SAMPLES = 4;

/**
 * Beyond this gap, when proven, the clock jumps, ms. Slewing at CLOCK_SLEW_RATE closes 50 ms in 10 s, about as
 * long as a wrong clock should stand; a larger proven gap is a step of one of the clocks (a server restart, a
 * tab or laptop back from sleep), better taken at once. Below it a lurch (three 60 Hz frames) would be worse
 * than 10 s of slight error. The estimate's own wander on a slow link can exceed 50 ms; the proof (the applied
 * offset outside the chosen sample's interval) keeps that from jumping, not this number.
 */
export const CLOCK_JUMP_MS = 50;

/**
 * Most ms the applied offset moves per ms of client time: 0.5%, so server time as read runs at 0.995 to 1.005
 * of the client clock, a tenth of what the playout's speed changes may add (playout.ts, PLAYOUT_MAX_RATE_CHANGE)
 * and unseen in motion. A typical re-estimate of 10 to 20 ms is closed in 2 to 4 s.
 */
export const CLOCK_SLEW_RATE = 0.005;

/**
 * Round trips above this are not used, ms. A second is no route (a geostationary satellite hop is about 600 ms):
 * it is an exchange that stalled, a frozen page whose pong waited for it, and its offset could be off by half
 * of it. NTP likewise stops trusting a source whose error bound passes 1.5 s (RFC 5905's MAXDIST). A link truly
 * that slow needs a larger value.
 */
export const CLOCK_MAX_ROUND_TRIP_MS = 1000;

/**
 * How fast two honest clocks may drift apart, ms per ms: quartz within about 100 ppm each way, and a clock
 * under NTP discipline is slewed at up to 500 ppm (the Linux kernel's limit). Used only to tell a step of the
 * clocks from drift: an old sample's interval widens by this much per ms of its age.
 */
export const CLOCK_DRIFT_BOUND = 500e-6;

/**
 * How far a sample's interval may be off through the clocks' resolution, ms. A server stamping with
 * `Date.now()` rounds t1 and t2 down to the ms, which moves θ by up to 1 ms and δ/2 by up to 0.5 ms; a browser
 * without cross-origin isolation coarsens `performance.now()` to 0.1 ms. A round trip this far below 0 is
 * rounding, not nonsense: it is taken as 0.
 */
export const CLOCK_STAMP_SLACK_MS = 2;

/** Samples held at most, whatever the window: ten seconds of pings at six a second. Allocated once. */
const CAPACITY = 64;

/**
 * The server clock: `addSample` per pong, `serverTime(clientNow)` whenever server time is needed.
 *
 * Before the first accepted sample `serverTime` returns NaN (`synced` is false): the caller must not play
 * before sync, and a NaN carried into a render time is refused downstream rather than drawn at a made-up time.
 * Neither method throws on what the network brings: bad samples return false and are counted. Allocates only at
 * creation (and in `stats()`).
 */
export class ServerClock {
  readonly #windowMs: number;
  readonly #keep: number;
  readonly #jumpMs: number;
  readonly #slewRate: number;
  readonly #maxRoundTrip: number;
  // the window: a ring of samples, oldest at #first, in the order they came
  readonly #received = new Float64Array(CAPACITY);
  readonly #offset = new Float64Array(CAPACITY);
  readonly #roundTrip = new Float64Array(CAPACITY);
  #first = 0;
  #count = 0;
  #newest = Number.NEGATIVE_INFINITY;
  #estimate = Number.NaN;
  #estimateRoundTrip = Number.NaN;
  #estimateReceived = Number.NaN;
  #applied = Number.NaN;
  /** Client time the applied offset was last slewed to. */
  #appliedAt = Number.NEGATIVE_INFINITY;
  #samples = 0;
  #rejected = 0;
  #slow = 0;
  #steps = 0;
  #jumps = 0;
  #lastJump = 0;

  constructor(options: ServerClockOptions = {}) {
    this.#windowMs = checkNumber('ServerClock windowMs', options.windowMs ?? CLOCK_WINDOW_MS, 0);
    this.#keep = checkNumber('ServerClock keep', options.keep ?? CLOCK_KEEP_SAMPLES, 1, { integer: true, max: CAPACITY });
    this.#jumpMs = checkNumber('ServerClock jumpMs', options.jumpMs ?? CLOCK_JUMP_MS, 0);
    this.#slewRate = checkNumber('ServerClock slewRate', options.slewRate ?? CLOCK_SLEW_RATE, 0, { max: 0.5 });
    this.#maxRoundTrip = checkNumber('ServerClock maxRoundTripMs', options.maxRoundTripMs ?? CLOCK_MAX_ROUND_TRIP_MS, 0);
  }

  /** Whether a sample was accepted: before it, `serverTime` is NaN. */
  get synced(): boolean {
    return this.#samples > 0;
  }

  /** Times the applied offset jumped. A caller with a Playout watches it around `addSample`... */
  get jumps(): number {
    return this.#jumps;
  }

  /**
   * ...and hands it this: ms the last jump moved server time as read (0 before any), for
   * `Playout.clockJumped`, so that the playout takes the jump into its delay rather than into the picture.
   */
  get lastJump(): number {
    return this.#lastJump;
  }

  /**
   * Takes one ping exchange. Returns whether it was used: false for nonsense (`rejected`) and for a round trip
   * above `maxRoundTripMs` (`slow`). A sample whose interval excludes an older sample's (allowing for drift and
   * rounding) proves that a clock stepped: the older samples go, and the estimate is the new one's.
   */
  addSample(sample: PingSample): boolean {
    const { sent, serverReceived, serverSent, received } = sample;
    const roundTrip = received - sent - (serverSent - serverReceived);
    if (
      !Number.isFinite(sent) || !Number.isFinite(serverReceived) || !Number.isFinite(serverSent) || !Number.isFinite(received) ||
      received < sent || serverSent < serverReceived || !(roundTrip >= -CLOCK_STAMP_SLACK_MS)
    ) {
      this.#rejected++;
      return false;
    }
    if (roundTrip > this.#maxRoundTrip) {
      this.#slow++;
      return false;
    }
    const offset = (serverReceived - sent + (serverSent - received)) / 2;
    const trip = Math.max(roundTrip, 0);
    this.#slew(received);
    if (this.#contradicts(received, offset, trip)) {
      this.#count = 0;
      this.#steps++;
    }
    this.#push(received, offset, trip);
    this.#samples++;
    this.#choose();
    const gap = Math.abs(this.#estimate - this.#applied);
    // proven wrong: the applied offset lies outside the chosen sample's interval (widened as in #contradicts)
    const proven = gap > this.#estimateRoundTrip / 2 + CLOCK_STAMP_SLACK_MS + CLOCK_DRIFT_BOUND * (this.#newest - this.#estimateReceived);
    if (this.#samples === 1 || (gap > this.#jumpMs && proven)) {
      if (this.#samples > 1) {
        this.#jumps++;
        this.#lastJump = this.#estimate - this.#applied;
      }
      this.#applied = this.#estimate;
    }
    return true;
  }

  /**
   * Server time at client time `clientNow`, ms: `clientNow` plus the applied offset, slewed first up to
   * `clientNow`. Over increasing `clientNow` it increases (by 1 ± slewRate per ms) except where the clock
   * jumps. A `clientNow` earlier than one already asked about (an arrival stamped before the last frame's
   * call) gets the offset as it stands, off by at most `slewRate` times the difference. NaN before sync.
   */
  serverTime(clientNow: number): number {
    this.#slew(clientNow);
    return clientNow + this.#applied;
  }

  /** The round trip of the exchange the estimate comes from, ms (what `stats().roundTrip` says, allocating nothing). */
  get roundTrip(): number {
    return this.#estimateRoundTrip;
  }

  /** The counters and the estimate as they stand. Allocates the record: for a stats panel, not every frame. */
  stats(): ServerClockStats {
    return {
      synced: this.synced,
      samples: this.#samples,
      rejected: this.#rejected,
      slow: this.#slow,
      steps: this.#steps,
      jumps: this.#jumps,
      lastJump: this.#lastJump,
      window: this.#count,
      offset: this.#applied,
      estimate: this.#estimate,
      roundTrip: this.#estimateRoundTrip,
    };
  }

  /** Moves the applied offset toward the estimate by at most slewRate per ms since it was last moved. */
  #slew(clientNow: number): void {
    const elapsed = clientNow - this.#appliedAt;
    if (!(elapsed > 0)) return;
    this.#appliedAt = clientNow;
    const gap = this.#estimate - this.#applied;
    const most = this.#slewRate * elapsed;
    if (gap > most) this.#applied += most;
    else if (gap < -most) this.#applied -= most;
    else if (gap === gap) this.#applied = this.#estimate; // within reach (and not NaN before sync): exactly there
  }

  /**
   * Whether the new sample's interval [θ ± (δ/2 + slack)] and a held sample's, widened by the drift their ages
   * allow, do not meet: both cannot hold of one pair of clocks, so a clock stepped between them.
   */
  #contradicts(received: number, offset: number, roundTrip: number): boolean {
    for (let n = 0; n < this.#count; n++) {
      const i = (this.#first + n) % CAPACITY;
      const apart = Math.abs(offset - this.#offset[i]!);
      const reach = (roundTrip + this.#roundTrip[i]!) / 2 + 2 * CLOCK_STAMP_SLACK_MS + CLOCK_DRIFT_BOUND * Math.abs(received - this.#received[i]!);
      if (apart > reach) return true;
    }
    return false;
  }

  /** Adds a sample as the newest, then lets go of those past the window (all but the newest `keep` at least). */
  #push(received: number, offset: number, roundTrip: number): void {
    if (this.#count === CAPACITY) {
      this.#first = (this.#first + 1) % CAPACITY;
      this.#count--;
    }
    const i = (this.#first + this.#count) % CAPACITY;
    this.#received[i] = received;
    this.#offset[i] = offset;
    this.#roundTrip[i] = roundTrip;
    this.#count++;
    this.#newest = this.#count === 1 ? received : Math.max(this.#newest, received);
    const oldest = this.#newest - this.#windowMs;
    while (this.#count > this.#keep && this.#received[this.#first]! < oldest) {
      this.#first = (this.#first + 1) % CAPACITY;
      this.#count--;
    }
  }

  /** The estimate: the offset of the held sample with the smallest round trip (the newer of equals). */
  #choose(): void {
    let best = -1;
    for (let n = 0; n < this.#count; n++) {
      const i = (this.#first + n) % CAPACITY;
      if (best < 0 || this.#roundTrip[i]! <= this.#roundTrip[best]!) best = i;
    }
    this.#estimate = this.#offset[best]!;
    this.#estimateRoundTrip = this.#roundTrip[best]!;
    this.#estimateReceived = this.#received[best]!;
  }
}
