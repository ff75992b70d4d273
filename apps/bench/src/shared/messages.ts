/** The postMessage designs' wire format (message.worker.ts and the transport suite). */
import type { SimConfig } from './sims.ts';

export type MessageMode = 'clone' | 'transfer';
export interface MessageConfig extends SimConfig {
  readonly mode: MessageMode;
  /** Transfer mode: buffers in the ping-pong pool. */
  readonly pool?: number;
}
export type ToWorker = { type: 'start' } | { type: 'stop' } | { type: 'return'; buffer: ArrayBuffer };
export interface TickMessage {
  readonly tick: number;
  /** Page-clock ms the state stands for. */
  readonly time: number;
  readonly position?: Float32Array;
  readonly rotation?: Float32Array;
  readonly buffer?: ArrayBuffer;
}
export interface WorkerReport {
  readonly type: 'report';
  readonly ticks: number;
  readonly undelivered: number;
}

