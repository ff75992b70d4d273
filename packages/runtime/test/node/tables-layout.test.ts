/**
 * Entity tables' plain side: what `defineTables` makes (the layout pinned), what it refuses, and the handle
 * index against a Map under random sets and deletes.
 */
import { describe, expect, it } from 'vitest';
import { defineTables, tablesCapacity } from 'steadyframe';
import { HandleIndex } from '../../src/core/handle-index.ts';
import { computeLayout } from '../../src/core/layout.ts';
import { COUNT_SPAN, tableCount } from '../../src/core/tables.ts';
import { mulberry32 } from 'steadyframe/testing';

const schema = defineTables(
  {
    ships: { capacity: 4, fields: { position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' } } },
    rocks: { capacity: 12, fields: { position: { width: 2, kind: 'linear' }, radius: { width: 1, kind: 'none' } } },
  },
  { score: { kind: 'none', scope: 'game' } },
);

describe('defineTables', () => {
  it('makes a plain schema: the union of the fields, $handle, a word per table, then the game fields', () => {
    expect(Object.keys(schema)).toEqual(['position', 'angle', 'radius', '$handle', '$ships', '$rocks', 'score']);
    expect(tablesCapacity(schema)).toBe(16);
    const layout = computeLayout(schema, 16);
    // ships are entities 0..3, rocks 4..15; each table sees only its own fields; its word is a game field
    expect(layout.tables.map(({ name, base, capacity, countIndex }) => ({ name, base, capacity, countIndex }))).toEqual([
      { name: 'ships', base: 0, capacity: 4, countIndex: 0 },
      { name: 'rocks', base: 4, capacity: 12, countIndex: 1 },
    ]);
    expect(layout.tables.map((t) => t.fields.map((f) => f.name))).toEqual([
      ['position', 'angle'],
      ['position', 'radius'],
    ]);
    expect(layout.game.map(({ name, current }) => ({ name, current }))).toEqual([
      { name: '$ships', current: true },
      { name: '$rocks', current: true },
      { name: 'score', current: false },
    ]);
    expect(layout.signature).toBe('position:linear:2;angle:angle:1;radius:none:1;$handle:none:1;$ships:table:4:position,angle;$rocks:table:12:position,radius;score:none:game');
    // a plain schema has no tables
    expect(computeLayout({ x: { width: 1, kind: 'linear' } }, 3).tables).toEqual([]);
  });

  it('keeps a table word exact: count below COUNT_SPAN, the handle counter above', () => {
    const word = (2 ** 24 - 1) * COUNT_SPAN + (2 ** 22);
    expect(Number.isSafeInteger(word)).toBe(true);
    expect(tableCount(word)).toBe(2 ** 22);
  });

  it('refuses what cannot work, naming the table and the fix', () => {
    const position = { width: 2, kind: 'linear' } as const;
    expect(() => computeLayout(schema, 20)).toThrow(/tables' capacities add up to 16, not the capacity 20/);
    expect(() => defineTables({})).toThrow(/an object of tables/);
    expect(() => defineTables({ 'bad name': { capacity: 1, fields: { position } } })).toThrow(/table "bad name" is not a valid name/);
    expect(() => defineTables({ a: { capacity: 0, fields: { position } } })).toThrow(/table "a" has capacity 0/);
    expect(() => defineTables({ a: { capacity: 1, fields: {} } })).toThrow(/table "a" has no fields/);
    expect(() => defineTables({ a: { capacity: 1, fields: { position }, }, b: { capacity: 1, fields: { position: { width: 3, kind: 'linear' } } } })).toThrow(
      /field "position" of table "b" differs from table "a"'s/,
    );
    expect(() => defineTables({ a: { capacity: 1, fields: { $x: position } } })).toThrow(/names starting with \$ are the runtime's/);
    expect(() => defineTables({ a: { capacity: 1, fields: { position: { width: 2, kind: 'linear', velocity: 'v' } } } })).toThrow(/names velocity "v", which is not a field of that table/);
    expect(() => defineTables({ a: { capacity: 1, fields: { position } } }, { score: { kind: 'none' } as never })).toThrow(/"score" has no scope 'game'/);
    expect(() => defineTables({ a: { capacity: 1, fields: { position } } }, { position: { kind: 'none', scope: 'game' } })).toThrow(/has the name of a table's field/);
    // a hand-made table word is checked as defineTables' are
    expect(() => computeLayout({ x: { width: 1, kind: 'linear' }, $t: { kind: 'none', scope: 'game', table: { capacity: 1, fields: ['x'] } } } as never, 1)).toThrow(/needs the schema's "\$handle" field/);
  });

  it('gives worker and page the same types: table names and their fields', () => {
    type S = typeof schema;
    const ships: import('steadyframe').TableFieldName<S, 'ships'> = 'angle';
    // @ts-expect-error radius is the rocks' field, not the ships'
    const wrong: import('steadyframe').TableFieldName<S, 'ships'> = 'radius';
    const names: import('steadyframe').TableName<S>[] = ['ships', 'rocks'];
    expect([ships, wrong, names.length]).toEqual(['angle', 'radius', 2]);
  });
});

describe('HandleIndex', () => {
  it('agrees with a Map through random sets and deletes, full and empty', () => {
    const random = mulberry32(1);
    // the first disagreement, if any (one expect for the 80,000 operations: expect itself was 2 s of them)
    let first: string | null = null;
    for (const capacity of [1, 5, 64, 1000]) {
      const index = new HandleIndex(capacity);
      const model = new Map<number, number>();
      for (let op = 0; op < 20_000; op++) {
        const handle = Math.floor(random() * capacity * 3);
        if (random() < 0.55 && (model.size < capacity || model.has(handle))) {
          index.set(handle, op);
          model.set(handle, op);
        } else if (index.delete(handle) !== model.delete(handle)) {
          first ??= `capacity ${capacity}, op ${op}: delete(${handle}) disagrees`;
        }
        const probe = Math.floor(random() * capacity * 3);
        if (index.get(probe) !== (model.get(probe) ?? -1)) first ??= `capacity ${capacity}, op ${op}: get(${probe}) is ${index.get(probe)}, not ${model.get(probe) ?? -1}`;
      }
      expect(first).toBeNull();
      for (const [handle, value] of model) expect(index.get(handle)).toBe(value);
      index.clear();
      for (const handle of model.keys()) expect(index.get(handle)).toBe(-1);
    }
  });
});

describe('tableSpans: what a publish of a schema of tables copies', () => {
  it("covers each table's live entities in every run and the game run, nothing of the dead between (merged where close)", async () => {
    const { blockRuns, tableSpans, MERGE_GAP_FLOATS } = await import('../../src/core/publish-copy.ts');
    const big = defineTables({
      a: { capacity: 3000, fields: { p: { width: 2, kind: 'linear' } } },
      b: { capacity: 3000, fields: { p: { width: 2, kind: 'linear' }, r: { width: 1, kind: 'none' } } },
    });
    const layout = computeLayout(big, 6000);
    const runs = blockRuns(layout);
    const game = new Float64Array(layout.game.length);
    const random = mulberry32(3);
    for (let round = 0; round < 200; round++) {
      const counts = [Math.floor(random() * 3001), Math.floor(random() * 3001)];
      game[0] = counts[0]! + COUNT_SPAN * 17;
      game[1] = counts[1]! + COUNT_SPAN * 5;
      const n = tableSpans(runs, game);
      const copied = new Uint8Array(layout.blockBytes / 4);
      for (let k = 0; k < n; k++) copied.fill(1, runs.spans[2 * k]!, runs.spans[2 * k + 1]!);
      // every live float of every run is copied, and the game run; a dead float only inside a merged gap
      const runList = [...layout.fields.map((f) => ({ at: f.offset / 4, width: f.width })), { at: layout.generationOffset / 4, width: 1 }];
      for (const { at, width } of runList) {
        layout.tables.forEach((t, ti) => {
          for (let i = 0; i < counts[ti]! * width; i++) if (copied[at + t.base * width + i] !== 1) expect.fail(`round ${round}: a live float not copied`);
        });
      }
      for (let i = 0; i < 2 * layout.game.length; i++) expect(copied[layout.gameOffset / 4 + i]).toBe(1);
      const live = runList.reduce((sum, { width }) => sum + width * (counts[0]! + counts[1]!), 0) + 2 * layout.game.length;
      const total = copied.reduce((sum, c) => sum + c, 0);
      expect(total - live).toBeLessThanOrEqual((runList.length * 2 + 1) * MERGE_GAP_FLOATS);
      for (let k = 1; k < n; k++) expect(runs.spans[2 * k]! - runs.spans[2 * k - 1]!).toBeGreaterThan(MERGE_GAP_FLOATS);
    }
  });
});
