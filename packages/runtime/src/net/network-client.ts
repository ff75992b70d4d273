/**
 * The network client (ARCHITECTURE.md, "Multiplayer"): a simulation definition whose world is a server's, so
 * a client's simulation worker is one line and everything on the page stays as it is:
 *
 * ```ts
 * // client.worker.ts
 * exposeSimulation(networkClient({ schema }));           // the URL comes from createRuntime's setup: { url }
 * ```
 *
 * Each tick, its step writes the state at the tick's render time: the tick's time on the shared clock, mapped
 * onto the server's clock (net/server-clock.ts) and back by the playout delay (net/playout.ts), resampled from
 * the snapshots around it (net/resample.ts). The worker machinery does the rest as for any simulation: the
 * double buffer and its lock, frames waking the worker, the catch-up, the heartbeat, pause and hidden pages
 * (a hidden tab's worker sleeps and resumes at the newest state: the playout skips the gap). The page's
 * `runtime.input` events reach the step as `tick.input` and go on to the server, stamped with the render time
 * they were made at, in server ms (their first `inputWidth` payload values with them). Each event goes out in
 * INPUT_REPEATS messages, one a tick, numbered: a message lost on the way loses no event while one of its copies
 * arrives, and the server takes each number once (net/client-inputs.ts).
 *
 * The server's events (its step's `tick.emit`, sent to this client: net/publisher.ts) are re-emitted by the step
 * (`tick.emit`) at the first tick whose state reaches their server time (the render time when it interpolates;
 * the newest snapshot's time when it holds or extrapolates past it, so an event never comes before the state it
 * belongs to), so the page presents each, once and in order, with the first frame that shows that point of the
 * server's timeline. The client's event is stamped with the client's tick; put the server tick in the payload
 * if the page needs it.
 *
 * `runtime.commands.network()` says how the link is doing (`NetworkStats`); `watchNetwork` (net/watch.ts)
 * turns it into `disconnected` / `reconnected` events on the page.
 */
import { checkNumber } from '../core/describe-value.ts';
import { computeLayout } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import type { SimulationDefinition, TickInfo } from '../worker/definition.ts';
import { Connection, type ReconnectOptions, type SocketFactory } from './connection.ts';
import type { PlayoutOptions } from './playout.ts';
import { ClientPrediction, type PredictionStats, type PredictOptions } from './prediction.ts';
import { RESAMPLED, Resampler } from './resample.ts';
import type { ServerClockOptions } from './server-clock.ts';
import { MAX_INPUT_PAYLOAD, MAX_INPUTS_PER_MESSAGE, wireFormat, type InputEvent } from './wire.ts';

export interface NetworkClientOptions<S extends Schema> {
  /** The server's schema (the wire checks it: both ends must be built with the same one). */
  readonly schema: S;
  /** The server's WebSocket URL. Default: `createRuntime`'s `setup.url`. */
  readonly url?: string;
  /** Makes the socket (default: the realm's `WebSocket`; in Node 20, pass the `ws` package's). */
  readonly socket?: SocketFactory;
  /**
   * Resampled states a second (default 120). The page blends two of them, which rounds a path's corner at a
   * snapshot by at most sin(θ/2) × tick / (2 × send interval) of a snapshot's motion (ARCHITECTURE.md).
   */
  readonly tickRate?: number;
  /** Payload values of each input event sent on to the server (default 0: time and code only; at most 15). */
  readonly inputWidth?: number;
  /** Snapshots kept (default 32). */
  readonly kept?: number;
  /** Ms past the newest snapshot that velocity fields carry entities on before they hold (default 100). */
  readonly maxExtrapolateMs?: number;
  /** Hermite between snapshots for fields with a velocity field (default true). */
  readonly hermite?: boolean;
  readonly playout?: Partial<PlayoutOptions>;
  readonly serverClock?: ServerClockOptions;
  /** Reconnects after a lost connection, with a backoff (default 250 ms doubling to 5 s); false: never. */
  readonly reconnect?: ReconnectOptions | false;
  /**
   * Predicts the entities `entities` chooses (the client's avatar, its shots) ahead of the server with the game's
   * own `simulation`, from this client's inputs, reconciled with each snapshot (net/prediction.ts); the rest stay
   * a playout delay behind. Needs a server that takes inputs (it tells each client its player).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly predict?: PredictOptions<S, any>;
}

/** How the link is doing: `runtime.commands.network()`. */
export interface NetworkStats {
  readonly url: string;
  readonly connected: boolean;
  readonly connects: number;
  readonly disconnects: number;
  /** The server clock has had a usable pong. */
  readonly synced: boolean;
  /** The round trip of the exchange the offset comes from, ms. */
  readonly roundTrip: number;
  /** Server minus client clock, ms, as applied. */
  readonly offset: number;
  /** How far behind the server's now the client draws, ms, and where the playout is taking it. */
  readonly delay: number;
  readonly targetDelay: number;
  /** The high percentile of lateness minus its median, ms. */
  readonly jitter: number;
  readonly snapshots: number;
  /** Snapshots that came after a frame needed them. */
  readonly late: number;
  /** Snapshots the server sent that never came (gaps in its send numbers, not in its ticks), and their share of all. */
  readonly lost: number;
  readonly loss: number;
  readonly reordered: number;
  readonly duplicates: number;
  /** Snapshots that came too late for any frame (older than the pair in use). */
  readonly dropped: number;
  /** Snapshots decoded as deltas against a state this client acknowledged, and whole (wire version 4). */
  readonly deltas: number;
  readonly full: number;
  /** Messages refused (a wrong schema, broken bytes), and the last refusal in words. */
  readonly refused: number;
  readonly lastRefusal: string | null;
  /** Ticks written by interpolation, extrapolation, holding the newest, and before the oldest kept. */
  readonly ticks: { readonly interpolated: number; readonly extrapolated: number; readonly held: number; readonly before: number };
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** Input events sent to the server (each once, however many messages carried it). */
  readonly inputsSent: number;
  /**
   * The newest of this client's input numbers (0 for the first it sent, then 1, 2...) that the newest snapshot's
   * state reflects: the server's ticks consumed it. −1 for none on this connection.
   */
  readonly inputsReflected: number;
  /** Times the server came back started over. */
  readonly restarts: number;
  /** Server events: taken (each once), copies let go, waiting for the playout, re-emitted into this worker's ring. */
  readonly events: number;
  readonly eventRepeats: number;
  readonly eventsWaiting: number;
  readonly eventsEmitted: number;
  /** Server events for this client that the server's window had no room for (this client did not acknowledge in time). */
  readonly eventsLost: number;
  /** The player the server numbers this client's inputs as (−1 until a snapshot says). */
  readonly player: number;
  /** What prediction has done (null without `predict`). */
  readonly predicted: Readonly<PredictionStats> | null;
}

/** The network client's commands (`createRuntime<typeof schema, NetworkCommands>`). */
export interface NetworkCommands {
  network(): NetworkStats;
}

/** Messages each input event goes out in, one a tick: a loss of one message in twenty loses one event in 8,000. */
export const INPUT_REPEATS = 3;

/** An input event on its way: numbered `sequence`, sent in `sends` messages so far. */
interface Outgoing {
  time: number;
  /** When the server is to apply it (the tick the prediction put it in), or undefined: at its next tick. */
  due: number | undefined;
  code: number;
  readonly payload: number[];
  sequence: number;
  sends: number;
}

export function networkClient<S extends Schema>(options: NetworkClientOptions<S>): SimulationDefinition<S, { readonly url?: string } | undefined> & { readonly commands: NetworkCommands } {
  const tickRate = checkNumber('networkClient tickRate', options.tickRate ?? 120, Number.MIN_VALUE, { max: 1000, what: 'a number of Hz above 0, at most 1000' });
  const inputWidth = checkNumber('networkClient inputWidth', options.inputWidth ?? 0, 0, { integer: true, max: MAX_INPUT_PAYLOAD - 1 });
  const maxExtrapolateMs = checkNumber('networkClient maxExtrapolateMs', options.maxExtrapolateMs ?? 100, 0);
  let connection: Connection | null = null;
  let resampler: Resampler | null = null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let prediction: ClientPrediction<S, any> | null = null;
  let url = options.url ?? '';
  let inputsSent = 0;
  let restarts = 0;
  const ticks = [0, 0, 0, 0];
  /** Events not yet sent INPUT_REPEATS times, oldest first, numbered in a row; `spare` keeps them for reuse. */
  const outgoing: Outgoing[] = [];
  const spare: Outgoing[] = [];
  let nextSequence = 0;
  /** The connection the outgoing events were numbered on (`counters.connects` then). */
  let numberedOn = -1;
  const chunk: InputEvent[] = [];
  let eventsEmitted = 0;
  /** The tick being stepped, for `emitEvent` (made once: re-emitting allocates nothing). */
  let stepping: TickInfo | null = null;
  const emitEvent = (code: number, payload: Float64Array): void => {
    stepping!.emitPayload(code, payload);
    eventsEmitted++;
  };
  return {
    schema: options.schema,
    tickRate,
    // the newest state is a render time: running ahead only guesses further
    maxLeadTicks: 1,
    backlog: 'drop',
    init(world, setup, { clock }) {
      if (connection !== null) {
        // restart('scratch'): the same link, a clean picture
        resampler!.reset();
        world.count = 0;
        return;
      }
      if (options.url === undefined) {
        if (typeof setup?.url !== 'string') throw new TypeError("steadyframe: networkClient needs the server's URL: networkClient({ url }) or createRuntime({ setup: { url } })");
        url = setup.url;
      }
      const layout = computeLayout(options.schema, world.capacity);
      resampler = new Resampler(layout, options.schema, maxExtrapolateMs, options.hermite ?? true);
      if (options.predict !== undefined) prediction = new ClientPrediction(options.predict, world.capacity, (options.predict.madeTime === true ? 2 : 1) + inputWidth);
      connection = new Connection({
        url,
        socket: options.socket,
        format: wireFormat(layout),
        clock,
        kept: options.kept,
        playout: options.playout,
        serverClock: options.serverClock,
        reconnect: options.reconnect,
      });
      connection.open();
    },
    step(world, tick) {
      const link = connection!;
      const render = link.renderTime(tick.at);
      // not synced yet: nothing to draw, and the tick's inputs have no server time to be stamped with (not sent)
      if (!Number.isFinite(render)) return;
      // predicting: from the newest snapshot (if newer), before this tick's inputs go into the next tick predicted
      const newest = link.buffer.newest;
      const player = link.counters.player;
      const predicting = prediction !== null && newest !== null && player >= 0 ? prediction : null;
      predicting?.reconcile(newest!, player);
      if (tick.input.length > 0 || outgoing.length > 0) forward(link, tick, render, predicting, player);
      const pair = link.buffer.pairAt(render);
      if (pair === null) return; // the last state held
      if (link.counters.restarts !== restarts) {
        // a server that started over: its generations say nothing about what was drawn before
        restarts = link.counters.restarts;
        resampler!.reset();
      }
      const how = resampler!.write(world, pair, render);
      ticks[how]!++;
      // the server time of the state just written: the render time, or the snapshot held (before the oldest, past
      // the newest): the events up to it come with this tick, as a server step's come with its own
      const shown = how === RESAMPLED.INTERPOLATED ? render : how === RESAMPLED.BEFORE ? pair.previous.time : pair.current.time;
      stepping = tick;
      link.events.due(shown, emitEvent);
      stepping = null;
      if (predicting !== null) {
        const clock = link.serverClock;
        const lead = predicting.leadMs(clock.roundTrip, link.playout?.jitter ?? 0);
        predicting.advance(clock.serverTime(tick.at) + lead, tick.at, lead, newest!.tick, world, player);
      }
    },
    commands: {
      network(): NetworkStats {
        const link = connection;
        if (link === null) throw new Error('steadyframe: the network client has not been attached yet');
        const clock = link.serverClock.stats();
        const playout = link.playout?.stats();
        const buffer = link.buffer.stats;
        const c = link.counters;
        const refused = Object.values(buffer.refused).reduce((a, b) => a + b, 0);
        return {
          url,
          connected: link.connected,
          connects: c.connects,
          disconnects: c.disconnects,
          synced: clock.synced,
          roundTrip: clock.roundTrip,
          offset: clock.offset,
          delay: playout?.delay ?? Number.NaN,
          targetDelay: playout?.target ?? Number.NaN,
          jitter: playout?.jitter ?? Number.NaN,
          snapshots: buffer.stored,
          late: playout?.late ?? 0,
          lost: c.lost,
          loss: c.lost / Math.max(1, buffer.stored + c.lost),
          reordered: buffer.reordered,
          duplicates: buffer.duplicates,
          dropped: buffer.stale,
          deltas: buffer.deltas,
          full: buffer.full,
          refused,
          lastRefusal: c.lastRefusal,
          ticks: { interpolated: ticks[RESAMPLED.INTERPOLATED]!, extrapolated: ticks[RESAMPLED.EXTRAPOLATED]!, held: ticks[RESAMPLED.HELD]!, before: ticks[RESAMPLED.BEFORE]! },
          bytesIn: c.bytesIn,
          bytesOut: c.bytesOut,
          inputsSent,
          inputsReflected: c.inputsReflected,
          restarts: c.restarts,
          events: link.events.taken,
          eventRepeats: link.events.repeats,
          eventsWaiting: link.events.length,
          eventsEmitted,
          eventsLost: link.events.lost,
          player: c.player,
          predicted: prediction === null ? null : { ...prediction.stats },
        };
      },
    },
  };

  /**
   * The tick's input events on to the server, each at the render time it was made at, with the events of the
   * ticks before that have not gone out INPUT_REPEATS times (256 a message). Events a connection did not take
   * (none open) are let go, as are those of a connection that closed: the server would refuse them late.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function forward(link: Connection, tick: TickInfo, render: number, predicting: ClientPrediction<S, any> | null, player: number): void {
    if (numberedOn !== link.counters.connects) {
      numberedOn = link.counters.connects;
      release(outgoing.length);
    }
    const input = tick.input;
    for (let i = 0; i < input.length; i++) {
      const event = spare.pop() ?? { time: 0, due: undefined, code: 0, payload: new Array<number>(inputWidth).fill(0), sequence: 0, sends: 0 };
      event.time = render - (tick.at - input.time(i));
      event.code = input.code(i);
      for (let j = 0; j < inputWidth; j++) event.payload[j] = input.payload(i, j);
      event.due = undefined;
      if (predicting !== null) {
        // into the next tick the prediction steps, and due at the server in time for it
        const at = predicting.inputTick();
        event.due = predicting.dueOf(at);
        predicting.predictor.input(nextSequence, at, event.due, event.code, options.predict!.madeTime === true ? [player, event.time, ...event.payload] : [player, ...event.payload]);
      }
      event.sequence = nextSequence;
      event.sends = 0;
      nextSequence = (nextSequence + 1) >>> 0;
      outgoing.push(event);
    }
    for (let first = 0; first < outgoing.length; first += MAX_INPUTS_PER_MESSAGE) {
      chunk.length = 0;
      for (let i = first; i < outgoing.length && i < first + MAX_INPUTS_PER_MESSAGE; i++) chunk.push(outgoing[i]!);
      if (!link.sendInputs(chunk, inputWidth, outgoing[first]!.sequence)) {
        release(outgoing.length);
        return;
      }
      for (let i = first; i < first + chunk.length; i++) if (outgoing[i]!.sends++ === 0) inputsSent++;
    }
    // oldest first, and every one went out just now: the done ones are a prefix
    let done = 0;
    while (done < outgoing.length && outgoing[done]!.sends >= INPUT_REPEATS) done++;
    release(done);
  }

  /** Lets the `count` oldest outgoing events go. */
  function release(count: number): void {
    for (let i = 0; i < count; i++) spare.push(outgoing[i]!);
    outgoing.copyWithin(0, count);
    outgoing.length -= count;
  }
}
