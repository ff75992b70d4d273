/**
 * On an isolated page the runtime takes the shared transport and says nothing on the console (the warning is for
 * pages that fell back; test/browser-plain/isolation-warning.test.ts has those).
 */
import { expect, it, vi } from 'vitest';
import { createRuntime } from 'steadyframe';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker } from './helpers.ts';

it('an isolated page gets the shared transport and no isolation warning', async () => {
  const warn = vi.spyOn(console, 'warn');
  const runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
  runtime.dispose();
  expect(runtime.transport).toBe('shared');
  expect(warn.mock.calls.filter((call) => String(call[0]).startsWith('steadyframe:'))).toEqual([]);
  warn.mockRestore();
});
