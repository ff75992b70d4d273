/** The timing suite's baseline pacers (pacer.worker.ts): modes and the side buffer's control words. */
export type PacerMode = 'timeout' | 'wait-async' | 'wait-spin';
export interface PacerConfig {
  readonly mode: PacerMode;
  /** wait-spin: ms before the due time at which the sleep ends and the spin starts. */
  readonly spinMs: number;
}
/** Int32 words of the side buffer (word 0 is SIDE.NEWEST): the stop flag, and the word pacers sleep on. */
export const PACER_STOP = 1;
export const PACER_WAIT = 2;
