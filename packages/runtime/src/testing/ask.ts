/**
 * Posts `message` on `channel` and resolves with the first answer. A worker the OS starves on a loaded machine
 * may not see the first post for a while, so it posts again every half second; rejects with `what` after
 * `timeoutMs`.
 */
export function askUntilAnswered<T>(channel: BroadcastChannel, message: unknown, what: string, timeoutMs = 30_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const again = setInterval(() => channel.postMessage(message), 500);
    const timer = setTimeout(() => {
      clearInterval(again);
      reject(new Error(`no answer from ${what} within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    channel.onmessage = (event: MessageEvent) => {
      clearInterval(again);
      clearTimeout(timer);
      resolve(event.data as T);
    };
    channel.postMessage(message);
  });
}
