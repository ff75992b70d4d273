/**
 * The network client's link state as events on the page (or wherever the runtime is): `watchNetwork` asks the
 * worker's `network()` every `intervalMs` and says when the connection was lost (`disconnected`, the last state
 * held on screen) and when it came back (`reconnected`), with the stats as they stood; `stats` on every answer.
 */
import type { Runtime } from '../contracts/app.ts';
import type { Schema } from '../core/schema.ts';
import { checkNumber } from '../core/describe-value.ts';
import { Emitter } from '../main/events.ts';
import type { NetworkCommands, NetworkStats } from './network-client.ts';

export interface NetworkEvents {
  disconnected: NetworkStats;
  reconnected: NetworkStats;
  stats: NetworkStats;
}

export interface NetworkWatch {
  on<K extends keyof NetworkEvents>(type: K, listener: (event: NetworkEvents[K]) => void): () => void;
  /** The last answer, or null before the first. */
  readonly latest: NetworkStats | null;
  stop(): void;
}

export function watchNetwork<S extends Schema>(runtime: Runtime<S, NetworkCommands>, options: { readonly intervalMs?: number } = {}): NetworkWatch {
  const intervalMs = checkNumber('watchNetwork intervalMs', options.intervalMs ?? 250, 1);
  const emitter = new Emitter<NetworkEvents>();
  let latest: NetworkStats | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ask = async (): Promise<void> => {
    let stats: NetworkStats;
    try {
      stats = await runtime.commands.network();
    } catch {
      return; // a disposed or faulted runtime: its own events say so
    } finally {
      if (!stopped) timer = setTimeout(() => void ask(), intervalMs);
    }
    if (stopped) return;
    const before = latest;
    latest = stats;
    if (before !== null && stats.disconnects > before.disconnects) emitter.emit('disconnected', stats);
    if (before !== null && stats.connects > before.connects && stats.connects > 1) emitter.emit('reconnected', stats);
    emitter.emit('stats', stats);
  };
  void ask();
  return {
    on: (type, listener) => emitter.on(type, listener),
    get latest() {
      return latest;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
