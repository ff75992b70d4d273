/**
 * What the runtime says on an isolated page. Where the engine shares memory it takes the shared transport and
 * says nothing on the console (the warning is for pages that fell back; test/browser-plain/isolation-warning.test.ts
 * has those). WebKitGTK as it ships is isolated (`crossOriginIsolated` is true) but has no SharedArrayBuffer:
 * there the runtime falls back to messages and its one warning names what is actually missing, the engine's
 * SharedArrayBuffer, not the headers the page already sends.
 */
import { expect, it, vi } from 'vitest';
import { createRuntime, ISOLATION_REQUIRED, SHARED_MEMORY_OFF } from 'steadyframe';
import { engineSharesMemory } from '../shared/engine.ts';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker, steadyframeWarnings } from './helpers.ts';

it.runIf(engineSharesMemory)('an isolated page gets the shared transport and no isolation warning', async () => {
  const warn = vi.spyOn(console, 'warn');
  const runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
  runtime.dispose();
  expect(runtime.transport).toBe('shared');
  expect(steadyframeWarnings(warn)).toEqual([]);
  warn.mockRestore();
});

it.runIf(!engineSharesMemory)('an isolated page without SharedArrayBuffer falls back to messages and says the engine lacks it', async () => {
  expect(globalThis.crossOriginIsolated).toBe(true);
  expect(typeof SharedArrayBuffer).toBe('undefined');
  const warn = vi.spyOn(console, 'warn');
  const runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
  runtime.dispose();
  expect(runtime.transport).toBe('message');
  expect(runtime.info.crossOriginIsolated).toBe(true);
  const warnings = steadyframeWarnings(warn);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(SHARED_MEMORY_OFF);
  expect(warnings[0]).not.toContain(ISOLATION_REQUIRED);
  // a page that asks for shared memory is refused with the same reason
  await expect(createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4, transport: 'shared' })).rejects.toThrow(SHARED_MEMORY_OFF);
  warn.mockRestore();
});
