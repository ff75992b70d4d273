/** The corner overlay: score and lives for the player; transport tier, render interval, ticks, fps and GL for you. */
import type { GameState } from './game.ts';
import { softwareNote, type GlRenderer } from './gl-renderer.ts';

export interface HudValues {
  readonly transport: string;
  readonly interval: number;
  readonly refresh: number;
  readonly fps: number;
  readonly game: GameState;
  /** The GL renderer, or null when unknown (no WebGL on the page). */
  readonly gl: GlRenderer | null;
}

const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function createHud(root: HTMLElement): (v: HudValues) => void {
  root.textContent = '';
  const readings = root.appendChild(document.createElement('div'));
  // on a software GL, what fps means: folded (a game keeps its field clear), made once so that it stays open
  let note: HTMLDetailsElement | null = null;
  return (v) => {
    const g = v.game;
    const n = v.refresh > 0 ? Math.round(v.interval / v.refresh) : 0;
    const hz = v.refresh > 0 ? ` (${n <= 1 ? 'every refresh' : `every ${n} refreshes`} at ${(1000 / v.refresh).toFixed(0)} Hz)` : '';
    const gl = v.gl === null ? '' : `<dt>GL</dt><dd id="gl" title="${escape(v.gl.name)}">${v.gl.software === null ? 'GPU' : `software (${escape(v.gl.software)})`}</dd>`;
    readings.innerHTML = `
      <div class="score"><b>${g.score}</b> <span>best ${g.best}</span> <span class="lives">${'▲'.repeat(g.lives)}</span></div>
      <dl>
        <dt>transport</dt><dd id="transport">${v.transport}</dd>
        <dt>interval</dt><dd>${v.interval.toFixed(1)} ms${hz}</dd>
        <dt>ticks</dt><dd>${g.tick} @ 30 Hz</dd>
        <dt>fps</dt><dd>${v.fps.toFixed(0)}</dd>
        <dt>bodies</dt><dd>${g.rocks} rocks, ${g.bullets} bullet${g.bullets === 1 ? '' : 's'}</dd>
        ${gl}
      </dl>`;
    if (note === null && v.gl?.software != null) {
      note = root.appendChild(document.createElement('details'));
      note.className = 'note';
      note.innerHTML = `<summary>software GL: fps is what it can rasterise</summary><p>${escape(softwareNote(v.gl.software))}</p>`;
    }
  };
}
