/**
 * Suite 16, tables (issue #39): what a game of several kinds of things costs as entity tables against the same
 * entities in one plain schema with a `kind` field (what a game did before: every entity carrying every field).
 * Per scene (shared/tables.ts: ships, rocks, bullets; a busy one and a sparse one):
 *
 * - **frame**: main-thread ms per `runtime.sample(t)` at alpha 0.5 (acquire, blend, release), both runtimes
 *   held on the same two ticks, samples alternating;
 * - **publish copy**: ms per `PublishCopier.publish` (core/publish-copy.ts: the copies of a publish, which the
 *   worker runs outside the lock; the flip is the same for both), on a buffer of each layout with the counts a
 *   publish of that scene copies (a schema of tables: up to the end of the last table's live entities).
 *
 * Ratios per pair of samples, tables ÷ plain. The single-table rows of suites 1 and 6 are this run's answer to
 * "no cost added to a plain schema".
 */
import { createRuntime, type Runtime, type Schema } from 'steadyframe';
import { allocateSharedBuffer, computeLayout, createSharedViews } from '../../../../packages/runtime/src/core/layout.ts';
import { PublishCopier } from '../../../../packages/runtime/src/core/publish-copy.ts';
import { collectGarbage, log, timeCalls } from '../page.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { plainSceneSchema, TABLES_SCENE_CAPACITY, TABLES_SCENES, tablesSceneSchema, type TablesScene, type TablesWorkerConfig } from '../shared/tables.ts';

export interface TablesRow {
  readonly scene: string;
  readonly live: number;
  /** Entities a publish copies and a frame blends: the plain count, the tables' extent. */
  readonly plainCount: number;
  readonly tablesCount: number;
  readonly frame: { readonly plain: Spread; readonly tables: Spread; readonly ratio: Spread };
  readonly publish: { readonly plain: Spread; readonly tables: Spread; readonly ratio: Spread };
}

export interface TablesResult {
  readonly rows: TablesRow[];
  readonly samples: number;
}

function worker(config: TablesWorkerConfig): Worker {
  const w = new Worker(new URL('../tables.worker.ts', import.meta.url), { type: 'module', name: `tables-${config.design}` });
  w.postMessage(config);
  return w;
}

async function held(design: 'tables' | 'plain', scene: TablesScene): Promise<{ runtime: Runtime<Schema>; time: number }> {
  const schema: Schema = design === 'tables' ? tablesSceneSchema : plainSceneSchema;
  const capacity = design === 'tables' ? TABLES_SCENE_CAPACITY : scene.ships + scene.rocks + scene.bullets;
  const runtime = await createRuntime<Schema>({ worker: worker({ design, scene }), schema, capacity, visibility: null });
  await runtime.stepOnce();
  await runtime.stepOnce();
  const newest = runtime.sample(Number.POSITIVE_INFINITY);
  if (newest.tick !== 2) throw new Error(`unexpected state: tick ${newest.tick}`);
  return { runtime, time: (newest.previousTime + newest.currentTime) / 2 };
}

/**
 * A publish's copies for `schema` at `count` entities (both states), on a buffer of its own; with tables, each
 * table's count (`tableCounts`) in its word, in the world and (by a first whole copy) every block.
 */
function publishCopy(schema: Schema, capacity: number, count: number, tableCounts: readonly number[] = []): () => void {
  const layout = computeLayout(schema, capacity);
  const buffer = allocateSharedBuffer(layout, 0);
  const views = createSharedViews(buffer, schema, capacity);
  const world = new Float32Array(buffer, layout.worldOffset, layout.blockBytes / 4);
  world.fill(0.5);
  const game = new Float64Array(buffer, layout.worldOffset + layout.gameOffset, layout.game.length);
  layout.tables.forEach((t, i) => (game[t.countIndex] = tableCounts[i]!));
  const copier = new PublishCopier(views, world);
  copier.initial();
  let front: 0 | 1 = 0;
  return () => {
    const back = front === 0 ? 1 : 0;
    copier.publish(front, back, count, count);
    front = back;
  };
}

const ratios = (a: number[], b: number[]): number[] => a.map((t, i) => t / b[i]!);

export async function tables(quick: boolean): Promise<TablesResult> {
  const samples = quick ? 7 : 15;
  const rows: TablesRow[] = [];
  for (const scene of TABLES_SCENES) {
    const live = scene.ships + scene.rocks + scene.bullets;
    const t = await held('tables', scene);
    const p = await held('plain', scene);
    try {
      const tablesCount = t.runtime.sample(t.time).count;
      const plainCount = p.runtime.sample(p.time).count;
      const kernels: Record<string, () => void> = {
        'frame tables': () => void t.runtime.sample(t.time),
        'frame plain': () => void p.runtime.sample(p.time),
        'publish tables': publishCopy(tablesSceneSchema, TABLES_SCENE_CAPACITY, tablesCount, [scene.ships, scene.rocks, scene.bullets]),
        'publish plain': publishCopy(plainSceneSchema, live, plainCount),
      };
      for (const fn of Object.values(kernels)) {
        const until = performance.now() + 150;
        for (let n = 0; n < 3 || performance.now() < until; n++) fn();
      }
      const calls = Object.fromEntries(Object.entries(kernels).map(([k, fn]) => [k, Math.max(1, Math.min(5000, Math.ceil(2 / Math.max(1e-4, timeCalls(fn, 5)))))]));
      const times: Record<string, number[]> = Object.fromEntries(Object.keys(kernels).map((k) => [k, []]));
      await collectGarbage();
      for (let r = 0; r < samples; r++) {
        for (const [name, fn] of Object.entries(kernels)) times[name]!.push(timeCalls(fn, calls[name]!));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      const row: TablesRow = {
        scene: scene.name,
        live,
        plainCount,
        tablesCount,
        frame: { plain: spread(times['frame plain']!), tables: spread(times['frame tables']!), ratio: spread(ratios(times['frame tables']!, times['frame plain']!)) },
        publish: { plain: spread(times['publish plain']!), tables: spread(times['publish tables']!), ratio: spread(ratios(times['publish tables']!, times['publish plain']!)) },
      };
      rows.push(row);
      log(`tables ${scene.name}: frame ${row.frame.tables.median.toFixed(4)} vs ${row.frame.plain.median.toFixed(4)} ms, publish ${row.publish.tables.median.toFixed(4)} vs ${row.publish.plain.median.toFixed(4)} ms`);
    } finally {
      t.runtime.dispose();
      p.runtime.dispose();
    }
  }
  return { rows, samples };
}
