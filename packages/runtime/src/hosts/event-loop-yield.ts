/**
 * One turn of the worker's event loop: resolves after the messages (comlink calls) and timers already queued
 * have had their turn. A MessageChannel round trip: no 4 ms timer clamp, and unlike a resolved promise it does
 * not run before pending tasks. The one yield both hosts use.
 */
export function createEventLoopYield(): () => Promise<void> {
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
}
