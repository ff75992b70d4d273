/**
 * The table tests' stage and picture check (tables.test.ts here, and @steadyframe/react-three-fiber's): the 6 x 4
 * grid of fixtures/tables-schema.ts at 16 pixels a unit, and a check of a picture against the frame's entities:
 * every lit pixel lies in the square of a live entity of the table whose colour it has, and every live entity is
 * drawn, in its own colour, centred where the frame puts it.
 */
import type { Frame } from 'steadyframe';
import { createStage } from './helpers.ts';
import { GRID, TABLE_NAMES, type tablesSchema } from './fixtures/tables-schema.ts';

export const PX_PER_UNIT = 16;
export const WIDTH = GRID.columns * PX_PER_UNIT;
export const HEIGHT = GRID.rows * PX_PER_UNIT;

/** One live entity as a frame shows it: where the picture should have its table's colour. */
export interface Shown {
  readonly table: number;
  readonly handle: number;
  readonly x: number;
  readonly y: number;
}

/** Every live entity of every table in `frame`, from its table's own fields. */
export function shownEntities(frame: Frame<typeof tablesSchema>): Shown[] {
  const shown: Shown[] = [];
  TABLE_NAMES.forEach((name, table) => {
    const t = frame.tables[name];
    for (let i = 0; i < t.count; i++) shown.push({ table, handle: t.handle(i), x: t.fields.pos[2 * i]!, y: t.fields.pos[2 * i + 1]! });
  });
  return shown;
}

/**
 * Checks RGBA `pixels` (`WIDTH` x `HEIGHT`, bottom row first, world (0, 0) at the bottom left) against `shown`;
 * returns what is wrong, at most `limit` lines.
 */
export function checkPicture(pixels: Uint8Array, shown: readonly Shown[], what: string, limit = 5): string[] {
  const problems: string[] = [];
  const say = (s: string) => void (problems.length < limit && problems.push(`${what}: ${s}`));
  const owner = new Map<number, Shown>();
  for (const s of shown) {
    const cell = Math.floor(s.x) + GRID.columns * Math.floor(s.y);
    if (owner.has(cell)) say(`two entities in cell ${cell}`);
    owner.set(cell, s);
  }
  const sums = new Map<Shown, { n: number; x: number; y: number }>(shown.map((s) => [s, { n: 0, x: 0, y: 0 }]));
  for (let py = 0; py < HEIGHT; py++) {
    for (let px = 0; px < WIDTH; px++) {
      const o = 4 * (py * WIDTH + px);
      const rgb = [pixels[o]!, pixels[o + 1]!, pixels[o + 2]!];
      const top = Math.max(...rgb);
      if (top < 40) continue;
      const colour = rgb.indexOf(top);
      const wx = (px + 0.5) / PX_PER_UNIT;
      const wy = (py + 0.5) / PX_PER_UNIT;
      if (rgb.filter((c) => c > 60).length > 1) {
        say(`a pixel of mixed colour (${rgb.join(', ')}) at (${wx.toFixed(2)}, ${wy.toFixed(2)})`);
        continue;
      }
      const o2 = owner.get(Math.floor(wx) + GRID.columns * Math.floor(wy));
      if (o2 === undefined) {
        say(`${TABLE_NAMES[colour]}' colour at (${wx.toFixed(2)}, ${wy.toFixed(2)}), in a cell no live entity holds`);
      } else if (o2.table !== colour) {
        say(`${TABLE_NAMES[colour]}' colour at (${wx.toFixed(2)}, ${wy.toFixed(2)}), on ${TABLE_NAMES[o2.table]} entity ${o2.handle}`);
      } else if (Math.max(Math.abs(wx - o2.x), Math.abs(wy - o2.y)) > 0.37) {
        say(`${TABLE_NAMES[colour]} entity ${o2.handle}'s colour at (${wx.toFixed(2)}, ${wy.toFixed(2)}), outside its square at (${o2.x.toFixed(2)}, ${o2.y.toFixed(2)})`);
      } else {
        const sum = sums.get(o2)!;
        sum.n++;
        sum.x += wx;
        sum.y += wy;
      }
    }
  }
  for (const [s, sum] of sums) {
    if (sum.n < 8) {
      say(`${TABLE_NAMES[s.table]} entity ${s.handle} at (${s.x.toFixed(2)}, ${s.y.toFixed(2)}) not drawn (${sum.n} pixels of its colour)`);
      continue;
    }
    const d = Math.hypot(sum.x / sum.n - s.x, sum.y / sum.n - s.y);
    if (d > 0.08) say(`${TABLE_NAMES[s.table]} entity ${s.handle} drawn at (${(sum.x / sum.n).toFixed(3)}, ${(sum.y / sum.n).toFixed(3)}), not at (${s.x.toFixed(3)}, ${s.y.toFixed(3)})`);
  }
  return problems;
}

/** A stage (helpers.ts) that sees the grid, bottom left at world (0, 0): `render()` returns its pixels, bottom row first. */
export const createTablesStage = () => createStage({ left: 0, right: GRID.columns, bottom: 0, top: GRID.rows, scale: PX_PER_UNIT });
