/**
 * The measuring half of the main-thread pages (ours.ts, colyseus.ts): a requestAnimationFrame loop that draws
 * (the page's `draw`, given the frame's timestamp) and times each call, and `window.bench` for the benchmark
 * (main-thread.ts): `ready` once the page draws the whole world, `measure(frames)` the next frames' costs, and the
 * ms spent in WebSocket message handlers on this thread in that window (a page that decodes there: Colyseus's).
 */

export interface PageResult {
  /** Ms each measured frame's `draw` took. */
  readonly drawMs: number[];
  /** Ms in WebSocket message handlers on this thread over the measured frames. */
  readonly messageMs: number;
  readonly messages: number;
  /** Ms from the first measured frame's timestamp to the last's. */
  readonly spanMs: number;
}

export interface BenchHooks {
  ready: boolean;
  /** Entities the last frame drew. */
  drawn: number;
  measure(frames: number): Promise<PageResult>;
  error: string | null;
}

declare global {
  interface Window {
    bench: BenchHooks;
  }
}

export const handlerTime = { ms: 0, messages: 0 };

/** Times every message handler a WebSocket made after this call is given (`onmessage` and 'message' listeners). */
export function timeWebSocketHandlers(): void {
  const Native = globalThis.WebSocket;
  const timed = (handler: (event: MessageEvent) => void) =>
    function (this: WebSocket, event: MessageEvent) {
      const start = performance.now();
      try {
        handler.call(this, event);
      } finally {
        handlerTime.ms += performance.now() - start;
        handlerTime.messages++;
      }
    };
  class TimedWebSocket extends Native {
    override set onmessage(handler: ((event: MessageEvent) => void) | null) {
      super.onmessage = handler === null ? null : timed(handler);
    }
    override get onmessage() {
      return super.onmessage;
    }
  }
  globalThis.WebSocket = TimedWebSocket;
}

export function runFrames(draw: (ts: number) => number): BenchHooks {
  let measuring: { left: number; drawMs: number[]; first: number; last: number; ms: number; messages: number; done: (r: PageResult) => void } | null = null;
  const hooks: BenchHooks = {
    ready: false,
    drawn: 0,
    error: null,
    measure(frames) {
      return new Promise((done) => {
        measuring = { left: frames, drawMs: [], first: Number.NaN, last: Number.NaN, ms: handlerTime.ms, messages: handlerTime.messages, done };
      });
    },
  };
  window.bench = hooks;
  const frame = (ts: number) => {
    requestAnimationFrame(frame);
    const start = performance.now();
    hooks.drawn = draw(ts);
    const cost = performance.now() - start;
    const m = measuring;
    if (m === null) return;
    if (Number.isNaN(m.first)) m.first = ts;
    m.last = ts;
    m.drawMs.push(cost);
    if (--m.left > 0) return;
    measuring = null;
    m.done({ drawMs: m.drawMs, messageMs: handlerTime.ms - m.ms, messages: handlerTime.messages - m.messages, spanMs: m.last - m.first });
  };
  requestAnimationFrame(frame);
  return hooks;
}
