/**
 * The HUD beside the arena: the scoreboard, each ship's score as the frame's game state has it (so a score changes
 * with the frame that shows the shot that made it), and the link's numbers from `watchNetwork`: round trip, the
 * delay the world is drawn behind the server, jitter, losses, and what the prediction of this page's ship does.
 *
 * ```text
 *  ● you      4        one row per ship, best first; this page's marked "you"
 *  ● player   1
 *  round trip 120 ms … predicted 180 ms ahead, corrections 2 (largest 48 units)
 * ```
 */
import type { Frame } from 'steadyframe';
import type { NetworkStats } from 'steadyframe/network';
import { hueOf } from './draw.ts';
import { MAX_PLAYERS, SCORES, SHIPS, type GameSchema } from './schema.ts';

export interface Hud {
  /** The scoreboard as `frame` has it (the DOM changes only when a row does). */
  scores(frame: Frame<GameSchema>, me: number): void;
  link(n: NetworkStats): void;
}

export function createHud(board: HTMLElement, numbers: HTMLElement): Hud {
  let shown = '';
  return {
    scores(frame, me) {
      const { owner, id } = frame.fields;
      const rows: { slot: number; id: number; score: number }[] = [];
      for (let s = 0; s < MAX_PLAYERS; s++) if (owner[SHIPS + s] !== 0) rows.push({ slot: s, id: id[SHIPS + s]!, score: frame.state[SCORES[s]!] });
      rows.sort((a, b) => b.score - a.score || a.slot - b.slot);
      const key = rows.map((r) => `${r.slot}:${r.id}:${r.score}`).join(' ');
      if (key === shown) return;
      shown = key;
      board.replaceChildren(
        ...rows.map((r) => {
          const row = document.createElement('li');
          row.dataset.slot = String(r.slot);
          if (r.id === me) row.dataset.mine = '';
          const swatch = document.createElement('i');
          swatch.style.background = `hsl(${hueOf(r.id)} 70% 55%)`;
          const who = document.createElement('span');
          who.textContent = r.id === me ? 'you' : 'player';
          const points = document.createElement('b');
          points.textContent = String(r.score);
          row.append(swatch, who, points);
          return row;
        }),
      );
    },
    link(n) {
      const ms = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '–');
      const p = n.predicted;
      numbers.textContent = [
        n.connected ? 'connected' : 'reconnecting…',
        `round trip  ${ms(n.roundTrip)}`,
        `world       ${ms(n.delay)} behind`,
        `jitter      ${ms(n.jitter)}`,
        `loss        ${(100 * n.loss).toFixed(1)}%`,
        `your ship   ${p === null || p.entities === 0 ? '–' : `${ms(p.leadMs)} ahead`}`,
        `corrections ${p === null ? 0 : p.corrections}${p !== null && p.corrections > 0 ? ` (≤ ${p.largestCorrection.toFixed(0)} units)` : ''}`,
      ].join('\n');
    },
  };
}
