/**
 * The corner overlay: score, lives and the shield for the player, the tick and the bodies; transport tier, render
 * interval, fps and GL for you. The game part is updated by every presented frame (`game`, from the frame's
 * tick and game state: the HUD shows the tick the picture shows); the rest (`stats`) a few times a second.
 * Both build their elements once and write only the text that changed.
 */
import type { GameState } from 'steadyframe';
import { softwareNote, type GlRenderer } from './gl-renderer.ts';
import type { ArenaSchema } from './schema.ts';

export interface HudStats {
  readonly transport: string;
  readonly interval: number;
  readonly refresh: number;
  readonly fps: number;
  /** The GL renderer, or null when unknown (no WebGL on the page). */
  readonly gl: GlRenderer | null;
}

export interface Hud {
  /** Shows the game state of the frame that shows `tick`. Allocates nothing unless a number changed. */
  game(tick: number, state: GameState<ArenaSchema>): void;
  stats(v: HudStats): void;
  /** The tick whose game state the HUD shows (-1 before the first frame). */
  readonly tick: number;
}

const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function createHud(root: HTMLElement): Hud {
  root.textContent = '';
  const readings = root.appendChild(document.createElement('div'));
  readings.innerHTML = `
    <div class="score"><b id="score">0</b> <span>best <i id="best">0</i></span> <span class="lives" id="lives"></span> <span class="shield" id="shield"></span></div>
    <dl>
      <dt>transport</dt><dd id="transport"></dd>
      <dt>interval</dt><dd id="interval"></dd>
      <dt>ticks</dt><dd id="ticks"></dd>
      <dt>fps</dt><dd id="fps"></dd>
      <dt>bodies</dt><dd id="bodies"></dd>
    </dl>`;
  const el = (id: string): HTMLElement => readings.querySelector(`#${id}`)!;
  const text = { score: el('score'), best: el('best'), lives: el('lives'), shield: el('shield'), ticks: el('ticks'), bodies: el('bodies') };
  const row = { transport: el('transport'), interval: el('interval'), fps: el('fps') };
  let gl: HTMLElement | null = null; // the GL row, once the renderer is known
  // what each element shows now, so a frame writes only what changed
  const shown = { tick: -1, score: NaN, best: NaN, lives: NaN, shield: NaN, rocks: NaN, bullets: NaN };
  // on a software GL, what fps means: folded (a game keeps its field clear), made once so that it stays open
  let note: HTMLDetailsElement | null = null;
  return {
    game(tick, s) {
      if (tick !== shown.tick) text.ticks.textContent = `${tick} @ 30 Hz`;
      shown.tick = tick;
      if (s.score !== shown.score) text.score.textContent = String((shown.score = s.score));
      if (s.best !== shown.best) text.best.textContent = String((shown.best = s.best));
      if (s.lives !== shown.lives) text.lives.textContent = '▲'.repeat(Math.max(0, (shown.lives = s.lives)));
      const shield = Math.ceil(s.shield * 10) / 10; // a linear field: blended, shown to a tenth of a second
      if (shield !== shown.shield) text.shield.textContent = (shown.shield = shield) > 0 ? `shield ${shield.toFixed(1)} s` : '';
      if (s.rocks !== shown.rocks || s.bullets !== shown.bullets) {
        shown.rocks = s.rocks;
        shown.bullets = s.bullets;
        text.bodies.textContent = `${s.rocks} rocks, ${s.bullets} bullet${s.bullets === 1 ? '' : 's'}`;
      }
    },
    stats(v) {
      const n = v.refresh > 0 ? Math.round(v.interval / v.refresh) : 0;
      const hz = v.refresh > 0 ? ` (${n <= 1 ? 'every refresh' : `every ${n} refreshes`} at ${(1000 / v.refresh).toFixed(0)} Hz)` : '';
      row.transport.textContent = v.transport;
      row.interval.textContent = `${v.interval.toFixed(1)} ms${hz}`;
      row.fps.textContent = v.fps.toFixed(0);
      if (v.gl !== null && gl === null) {
        const list = readings.querySelector('dl')!;
        list.appendChild(document.createElement('dt')).textContent = 'GL';
        gl = list.appendChild(document.createElement('dd'));
        gl.id = 'gl';
        gl.title = v.gl.name;
        gl.textContent = v.gl.software === null ? 'GPU' : `software (${v.gl.software})`;
      }
      if (note === null && v.gl?.software != null) {
        note = root.appendChild(document.createElement('details'));
        note.className = 'note';
        note.innerHTML = `<summary>software GL: fps is what it can rasterise</summary><p>${escape(softwareNote(v.gl.software))}</p>`;
      }
    },
    get tick() {
      return shown.tick;
    },
  };
}
