/** The corner overlay: score and lives for the player; transport tier, render interval, ticks and fps for you. */
import type { GameState } from './game.ts';

export interface HudValues {
  readonly transport: string;
  readonly interval: number;
  readonly refresh: number;
  readonly fps: number;
  readonly game: GameState;
}

export function createHud(root: HTMLElement): (v: HudValues) => void {
  return (v) => {
    const g = v.game;
    const hz = v.refresh > 0 ? ` (every ${Math.round(v.interval / v.refresh)} of ${(1000 / v.refresh).toFixed(0)} Hz)` : '';
    root.innerHTML = `
      <div class="score"><b>${g.score}</b> <span>best ${g.best}</span> <span class="lives">${'▲'.repeat(g.lives)}</span></div>
      <dl>
        <dt>transport</dt><dd id="transport">${v.transport}</dd>
        <dt>interval</dt><dd>${v.interval.toFixed(1)} ms${hz}</dd>
        <dt>ticks</dt><dd>${g.tick} @ 30 Hz</dd>
        <dt>fps</dt><dd>${v.fps.toFixed(0)}</dd>
        <dt>bodies</dt><dd>${g.rocks} rocks, ${g.bullets} bullet${g.bullets === 1 ? "" : "s"}</dd>
      </dl>`;
  };
}
