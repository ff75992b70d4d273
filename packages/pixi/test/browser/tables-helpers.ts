/**
 * Shared by the 2D adapters' table tests (this package's tables.test.ts and @steadyframe/phaser's): a runtime on
 * the tables fixture, stepped by hand; each entity as a frame shows it; and a check of a picture read back,
 * pixel by pixel, against those entities.
 */
import { createRuntime, type Frame, type Runtime } from 'steadyframe';
export { mulberry32 } from 'steadyframe/testing';
import { SIDE, TABLE_NAMES, TABLES_CAPACITY, tablesSchema } from './fixtures/tables-schema.ts';

export { CELL, HEIGHT, SIDE, TABLE_NAMES, WIDTH, tablesSchema } from './fixtures/tables-schema.ts';
export type TablesRuntime = Runtime<typeof tablesSchema>;
export type TablesFrame = Frame<typeof tablesSchema>;

/**
 * A runtime on the tables fixture, attached (tick 0 published) and not started: tests step it by hand. One seed:
 * the same spawns and despawns every run, so the counts the tests ask of them hold every run.
 */
export async function tablesRuntime(): Promise<TablesRuntime> {
  return createRuntime({
    worker: new Worker(new URL('./fixtures/tables.worker.ts', import.meta.url), { type: 'module', name: 'tables' }),
    schema: tablesSchema,
    capacity: TABLES_CAPACITY,
    seed: 39,
    pacing: { adaptive: false },
  });
}

/** The shared-clock time at `alpha` between the newest pair's two states. */
export function timeAt(runtime: TablesRuntime, alpha: number): number {
  const f = runtime.sample(Number.POSITIVE_INFINITY);
  return f.previousTime + alpha * (f.currentTime - f.previousTime);
}

/** Each table's colour (0xRRGGBB): ships red, rocks green, bullets blue. */
export const TABLE_COLOURS = [0xff0000, 0x00ff00, 0x0000ff] as const;

/** Entity `handle` of table `t`'s own colour: its table's channel full, the next channel a mark of the handle. */
export function handleColour(t: number, handle: number): number {
  const mark = 0x30 + 16 * (handle % 8);
  return TABLE_COLOURS[t]! | (mark << (8 * (2 - ((t + 1) % 3))));
}

/** An entity as a frame shows it: its table's number, handle, index and place. */
export interface ShownEntity {
  readonly table: number;
  readonly handle: number;
  readonly index: number;
  readonly x: number;
  readonly y: number;
}

/** Every live entity of every table in `frame` (read now: the frame's views change with the next sample). */
export function entitiesOf(frame: TablesFrame): ShownEntity[] {
  const all: ShownEntity[] = [];
  TABLE_NAMES.forEach((name, table) => {
    const t = frame.tables[name];
    for (let index = 0; index < t.count; index++) all.push({ table, handle: t.handle(index), index, x: t.fields.pos[2 * index]!, y: t.fields.pos[2 * index + 1]! });
  });
  return all;
}

/**
 * Checks a picture (RGBA rows from the top, `width` wide) against the entities drawn: every lit pixel lies in one
 * entity's square (its side SIDE, centred on the entity; within 0.75 px for the rasteriser's edges) and has that
 * entity's colour (`colourOf`, each channel within 24), and each entity lights at least (SIDE - 1)^2 pixels.
 * Returns what is wrong first, or null.
 */
export function checkPicture(pixels: ArrayLike<number>, width: number, height: number, entities: readonly ShownEntity[], colourOf: (e: ShownEntity) => number): string | null {
  const lit = new Array<number>(entities.length).fill(0);
  const reach = SIDE / 2 + 0.75;
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const o = 4 * (py * width + px);
      const r = pixels[o]!;
      const g = pixels[o + 1]!;
      const b = pixels[o + 2]!;
      if (Math.max(r, g, b) < 64) continue;
      const cx = px + 0.5;
      const cy = py + 0.5;
      const k = entities.findIndex((e) => Math.abs(cx - e.x) < reach && Math.abs(cy - e.y) < reach);
      const seen = `(${r}, ${g}, ${b})`;
      if (k < 0) return `pixel (${px}, ${py}) is lit ${seen} where no entity stands`;
      const e = entities[k]!;
      const want = colourOf(e);
      const wanted = [(want >> 16) & 255, (want >> 8) & 255, want & 255];
      if (Math.abs(r - wanted[0]!) > 24 || Math.abs(g - wanted[1]!) > 24 || Math.abs(b - wanted[2]!) > 24) {
        return `pixel (${px}, ${py}) of ${TABLE_NAMES[e.table]} entity ${e.index} (handle ${e.handle}) shows ${seen}, not (${wanted.join(', ')})`;
      }
      lit[k]!++;
    }
  }
  const k = lit.findIndex((n) => n < (SIDE - 1) ** 2);
  if (k >= 0) {
    const e = entities[k]!;
    return `${TABLE_NAMES[e.table]} entity ${e.index} (handle ${e.handle}) at (${e.x.toFixed(2)}, ${e.y.toFixed(2)}) lit ${lit[k]} pixels`;
  }
  return null;
}
