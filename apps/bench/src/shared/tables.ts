/**
 * The tables suite's scene (suites/tables.ts, tables.worker.ts): ships, rocks and bullets as three tables, and
 * the same entities as one plain schema that carries every field and a `kind` (what a game did before tables:
 * the arena's schema). Live counts per scene; the worker moves every live entity each tick.
 */
import { defineSchema, defineTables, tablesCapacity } from 'steadyframe/worker';

export const tablesSceneSchema = defineTables({
  ships: { capacity: 64, fields: { position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' }, shield: { width: 1, kind: 'linear' } } },
  rocks: { capacity: 2048, fields: { position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' }, radius: { width: 1, kind: 'none' } } },
  bullets: { capacity: 8192, fields: { position: { width: 2, kind: 'linear' } } },
});
export const TABLES_SCENE_CAPACITY = tablesCapacity(tablesSceneSchema);

/** The same things in one schema: every entity carries every field, and which kind it is. */
export const plainSceneSchema = defineSchema({
  position: { width: 2, kind: 'linear' },
  angle: { width: 1, kind: 'angle' },
  shield: { width: 1, kind: 'linear' },
  radius: { width: 1, kind: 'none' },
  kind: { width: 1, kind: 'none' },
});

export interface TablesScene {
  readonly name: string;
  readonly ships: number;
  readonly rocks: number;
  readonly bullets: number;
}

export const TABLES_SCENES: readonly TablesScene[] = [
  { name: 'busy', ships: 64, rocks: 2000, bullets: 8000 },
  { name: 'sparse', ships: 8, rocks: 200, bullets: 500 },
];

export interface TablesWorkerConfig {
  readonly design: 'tables' | 'plain';
  readonly scene: TablesScene;
}
