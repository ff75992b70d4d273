/**
 * A page that imports its worker module (for the schema, or a constant the module also exports) runs the
 * module's top level on the main thread. A window has a `postMessage`, so before this refusal
 * `exposeSimulation` served the simulation on it: a `postMessage({ type: 'GET' })` to the window got a comlink
 * reply. It throws instead, naming that import as the likely cause and the fix (a module of their own for the
 * shared values).
 */
import type { Endpoint } from 'comlink';
import { expect, it } from 'vitest';
import { exposeSimulation } from 'steadyframe/worker';
import { motionSchema } from './fixtures/schemas.ts';

const NAMED_CAUSE = /steadyframe: exposeSimulation\(\) refuses to serve on a window .*a page that imports the worker module.*a module of its own/;

it('a page importing a worker module fails at the import, with the cause named', async () => {
  await expect(import('./fixtures/motion.worker.ts')).rejects.toThrow(NAMED_CAUSE);
});

it('refuses the window as the default endpoint and as an explicit one', () => {
  const definition = { schema: motionSchema, tickRate: 20, step() {} };
  expect(() => exposeSimulation(definition)).toThrow(NAMED_CAUSE);
  // as an app would pass it, typed as comlink's endpoint (a window's postMessage takes a target origin too)
  expect(() => exposeSimulation(definition, { endpoint: window as unknown as Endpoint })).toThrow(NAMED_CAUSE);
});

it('a window that imported a worker module answers no comlink message', async () => {
  await import('./fixtures/motion.worker.ts').catch(() => undefined);
  // a comlink GET as a frame or an opener could post it; a served simulation would answer on the same window.
  // Messages to a window arrive in order: a reply is posted while the probe is handled, so before the marker
  // this listener posts on hearing the probe (an exposed simulation's listener was added first).
  const heard: unknown[] = [];
  const done = new Promise<void>((resolve) => {
    const listen = (event: MessageEvent): void => {
      const data = event.data as { type?: unknown } | null;
      if (data?.type === 'GET') window.postMessage({ type: 'MARKER' }, '*');
      else if (data?.type === 'MARKER') {
        window.removeEventListener('message', listen);
        resolve();
      } else heard.push(event.data);
    };
    window.addEventListener('message', listen);
  });
  window.postMessage({ id: 'probe', type: 'GET', path: ['stats'] }, '*');
  await done;
  expect(heard).toEqual([]);
});
