/**
 * What steadyframe weighs in an app (scripts/bundle-size.mjs): the "Use it" app (the docs' Start page, site/start.md) built with Vite, each
 * side's loaded chunks held to the committed budget (packages/runtime/bundle-budget.json), and what each side
 * must leave out, or load only on demand:
 *
 * ```text
 *  page    no worker code (steadyframe/worker, a transport's worker half, the manual clock's)
 *          the message transport's page half on demand (an isolated page runs the shared transport)
 *  worker  no page code (a transport's page half, the blend kernels and their WebAssembly assembler)
 *          record, replay, playback and snapshots on demand; the message transport's half and the manual clock's too
 * ```
 *
 * A size that grows past the budget fails here: cut it, or raise the budget in the same change and say why.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper shared with the scripts; it has no type declarations.
import { measureUseIt } from '../../../../scripts/bundle-size.mjs';

interface Chunk {
  file: string;
  bytes: number;
  gzip: number;
  modules: Record<string, number>;
}
interface Side {
  loaded: Chunk[];
  onDemand: Chunk[];
  bytes: number;
  gzip: number;
}

const budget = JSON.parse(readFileSync(new URL('../../bundle-budget.json', import.meta.url), 'utf8')) as { page: { gzip: number }; worker: { gzip: number } };
let sizes: { page: Side; worker: Side };
beforeAll(async () => {
  sizes = (await measureUseIt('.bundle-size-test')) as { page: Side; worker: Side };
  console.log(`"Use it": page ${sizes.page.gzip} B gzip (budget ${budget.page.gzip}), worker ${sizes.worker.gzip} B gzip (budget ${budget.worker.gzip})`);
}, 120_000); // two Vite builds (the page, its worker): seconds on a loaded 2-core machine

const modules = (chunks: Chunk[]): string[] => chunks.flatMap((c) => Object.keys(c.modules));
const matching = (chunks: Chunk[], pattern: RegExp): string[] => modules(chunks).filter((m) => pattern.test(m));

it("each side's loaded JavaScript is within the budget", () => {
  expect(sizes.page.gzip).toBeLessThanOrEqual(budget.page.gzip);
  expect(sizes.worker.gzip).toBeLessThanOrEqual(budget.worker.gzip);
});

it('the page loads no worker code, and the message transport only on demand', () => {
  expect(matching(sizes.page.loaded, /^worker\/|^transports\/[^/]+\/worker\.ts$|^hosts\/manual-clock\/worker\.ts$/)).toEqual([]);
  expect(matching(sizes.page.loaded, /^transports\/message\/page\.ts$/)).toEqual([]);
  expect(matching(sizes.page.onDemand, /^transports\/message\/page\.ts$/)).toEqual(['transports/message/page.ts']);
  // what the page does load: the shared transport's half and the frame machinery
  expect(matching(sizes.page.loaded, /^transports\/shared\/page\.ts$|^main\/sampler\.ts$/)).toHaveLength(2);
});

it('the worker loads no page code, and record, replay and the message transport only on demand', () => {
  expect(matching(sizes.worker.loaded, /^main\/|^transports\/[^/]+\/page\.ts$|^core\/simd-kernel|^core\/wasm-assembler\.ts$/)).toEqual([]);
  const onDemand = /^core\/recording\.ts$|^worker\/(recorder|replay|playback|snapshot)\.ts$|^transports\/message\/worker\.ts$|^hosts\/manual-clock\/worker\.ts$/;
  expect(matching(sizes.worker.loaded, onDemand)).toEqual([]);
  expect(matching(sizes.worker.onDemand, onDemand).sort()).toEqual([
    'core/recording.ts',
    'hosts/manual-clock/worker.ts',
    'transports/message/worker.ts',
    'worker/playback.ts',
    'worker/recorder.ts',
    'worker/replay.ts',
    'worker/snapshot.ts',
  ]);
  expect(matching(sizes.worker.loaded, /^transports\/shared\/worker\.ts$|^worker\/loop\.ts$/)).toHaveLength(2);
});
