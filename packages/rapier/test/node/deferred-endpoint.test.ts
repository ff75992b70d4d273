/**
 * deferEndpoint holds what arrives before Rapier is ready and hands it over in order; comlink's exposed
 * object then answers the held call (the attach that would otherwise find no Rapier, or no listener).
 */
import { expose, wrap } from 'comlink';
import { describe, expect, it } from 'vitest';
import { deferEndpoint, type Endpoint } from '@steadyframe/rapier';

describe('deferEndpoint', () => {
  it('delivers nothing before the promise resolves, then every held message in order, then live ones', async () => {
    const { port1, port2 } = new MessageChannel();
    let open!: () => void;
    const seen: unknown[] = [];
    const endpoint = deferEndpoint(port2 as unknown as Endpoint, new Promise<void>((resolve) => (open = resolve)));
    endpoint.addEventListener('message', (event) => seen.push((event as MessageEvent).data));
    port1.postMessage(1);
    port1.postMessage(2);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([]);
    open();
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([1, 2]);
    port1.postMessage(3);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([1, 2, 3]);
    port1.close();
  });

  it('lets a comlink call made before the promise resolves run once it has', async () => {
    const { port1, port2 } = new MessageChannel();
    let ready = false;
    let open!: () => void;
    expose({ isReady: () => ready }, deferEndpoint(port2 as unknown as Endpoint, new Promise<void>((resolve) => (open = resolve))));
    const remote = wrap<{ isReady(): boolean }>(port1 as unknown as Endpoint);
    const answer = remote.isReady();
    setTimeout(() => {
      ready = true;
      open();
    }, 30);
    expect(await answer).toBe(true);
    port1.close();
  });
});
