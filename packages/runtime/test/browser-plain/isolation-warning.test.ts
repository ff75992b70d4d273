/**
 * A page served WITHOUT the isolation headers: when the runtime falls back to the message transport by itself,
 * the console gets one warning naming the two headers, once per page; choosing `transport: 'message'` gets none.
 * (Each test file runs in a page of its own, so this file's runtimes are the page's first.)
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createRuntime } from 'steadyframe';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import { fixtureWorker, steadyframeWarnings } from '../browser/helpers.ts';

const warn = vi.spyOn(console, 'warn');
afterEach(() => warn.mockClear());

async function runtimeWith(transport: 'auto' | 'message') {
  const runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4, transport });
  runtime.dispose();
  return runtime.transport;
}

/** The warnings steadyframe wrote. */
const warnings = () => steadyframeWarnings(warn);

it('an explicit message transport is a choice: no warning', async () => {
  expect(await runtimeWith('message')).toBe('message');
  expect(warnings()).toEqual([]);
});

it('falling back by itself warns once, in one line naming both headers and their values', async () => {
  expect(await runtimeWith('auto')).toBe('message');
  expect(warnings()).toHaveLength(1);
  const [line] = warnings();
  expect(line).not.toContain('\n');
  expect(line).toContain('Cross-Origin-Opener-Policy: same-origin');
  expect(line).toContain('Cross-Origin-Embedder-Policy: require-corp');
  expect(line).toContain("transport: 'message'"); // how to silence it
});

it('once per page: the next runtime on the page does not warn again', async () => {
  expect(await runtimeWith('auto')).toBe('message');
  expect(warnings()).toEqual([]);
});
