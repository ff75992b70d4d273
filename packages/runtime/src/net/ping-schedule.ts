/**
 * When a client pings the server for its clock (server-clock.ts): a burst at connect, then one a second. Pure:
 * the caller keeps the count and its own timer.
 *
 * ```text
 *  connect ─ p1 ─ p2 ─ p3 ─ p4 ─ p5 ───────────── p6 ───────────── p7 ─── ...
 *            └ 100 ms apart ┘      └──── 1 s ────┘
 * ```
 */

/**
 * Pings at connect. The clock needs a sample at once and a few to pick the fastest from before play starts:
 * five give the window a choice within half a second, and fill CLOCK_KEEP_SAMPLES.
 */
export const PING_BURST = 5;

/**
 * Ms between the burst's pings. Sent back to back they would meet the same queue and share its delay; 100 ms
 * apart each meets the link at another moment, and the burst is over in 400 ms.
 */
export const PING_BURST_GAP_MS = 100;

/**
 * Ms between pings after the burst: ten in CLOCK_WINDOW_MS to choose the fastest from, at a few dozen bytes
 * each way a second (a snapshot stream is thousands). A clock step is then seen within a second.
 */
export const PING_INTERVAL_MS = 1000;

/**
 * Ms to wait after the `sent`-th ping (1 for the first) before the next one: PING_BURST_GAP_MS within the
 * burst, PING_INTERVAL_MS after it; 0 for `sent` 0 (ping at once). Start the count again at a reconnect.
 */
export function pingDelay(sent: number): number {
  if (sent <= 0) return 0;
  return sent < PING_BURST ? PING_BURST_GAP_MS : PING_INTERVAL_MS;
}

/**
 * Pings a server answers from one connection a second, and the burst it answers at once (net/rate-bucket.ts):
 * the wire's pings (the publisher refuses the rest as `flood`, unanswered) and the WebSocket's own ping frames
 * (the socket host closes a connection past it, 1008). The schedule above sends at most PING_BURST in its first
 * half second and one a second after, so twice the burst leaves a client that reconnects twice in a row room;
 * a flood gets at most this many answers a second, each a few dozen bytes.
 */
export const MAX_PINGS_PER_SECOND = 2 * PING_BURST;
