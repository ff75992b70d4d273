/** What the frame pacer (frame-pacer.ts) reports when its render interval changes, and why it changed. */

/** What moved the render interval. */
export type PacerChangeReason = 'overrun' | 'spare' | 'refresh-change';

/** One change of the render interval. A new record per change; frames where nothing changes allocate nothing. */
export interface PacerChange {
  /** Render interval before the change, ms. */
  readonly from: number;
  /** Render interval after the change, ms. */
  readonly to: number;
  /** `n` before and after. */
  readonly fromMultiple: number;
  readonly toMultiple: number;
  /** The refresh period estimate after the change, ms. */
  readonly refreshPeriod: number;
  readonly reason: PacerChangeReason;
  /** The rAF timestamp of the frame that caused it: the rendered frame for 'overrun' and 'spare'. */
  readonly at: number;
}
