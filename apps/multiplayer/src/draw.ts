/**
 * The picture: one frame of the world on a 2D canvas (the arena scaled to its width), and the shots' beams and
 * bursts over it, each fading out over its own ms of the frames' time.
 *
 * ```text
 *  orbs      a disc each, in the hue of its index
 *  ships     a dart each, nose along its heading, in the hue of its page's id; this page's ringed; its score above
 *  effects   beam: a line from the shooter to where the shot ended, BEAM_MS   burst: a ring that grows, BURST_MS
 * ```
 */
import type { Frame } from 'steadyframe';
import { HEIGHT, MAX_PLAYERS, ORB_RADIUS, ORBS, SCORES, SHIP_RADIUS, SHIPS, WIDTH, type GameSchema } from './schema.ts';

const BEAM_MS = 180;
const BURST_MS = 350;

/** A shot's beam or a hit's burst, drawn from the frame time it began at until it has faded. */
export interface Effect {
  readonly kind: 'beam' | 'burst';
  readonly from: readonly [number, number];
  readonly to: readonly [number, number];
  readonly hue: number;
  readonly at: number;
}

/** The hue a page's id draws its ship, beams and score in. */
export const hueOf = (id: number): number => (id * 137) % 360;

/** Where a canvas pixel (CSS px from its top-left) lies in the arena's units. */
export function toWorld(canvas: HTMLCanvasElement, px: number, py: number): [number, number] {
  const scale = WIDTH / canvas.clientWidth;
  return [px * scale, py * scale];
}

export function drawFrame(context: CanvasRenderingContext2D, frame: Frame<GameSchema>, me: number, effects: Effect[]): void {
  const canvas = context.canvas;
  const scale = canvas.width / WIDTH;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.setTransform(scale, 0, 0, scale, 0, 0);
  context.strokeStyle = '#2a3644';
  context.lineWidth = 2;
  context.strokeRect(1, 1, WIDTH - 2, HEIGHT - 2);
  const { position: p, heading, owner, id } = frame.fields;
  for (let i = 0; i < ORBS; i++) {
    context.fillStyle = `hsl(${(i * 47) % 360} 70% 60%)`;
    context.beginPath();
    context.arc(p[2 * i]!, p[2 * i + 1]!, ORB_RADIUS, 0, 2 * Math.PI);
    context.fill();
  }
  // the scores above the ships: 16 units, and never under 11 CSS px (a phone draws the arena a third of its size)
  const label = Math.max(16, (11 * WIDTH) / Math.max(1, canvas.clientWidth));
  context.font = `${label.toFixed(1)}px system-ui, sans-serif`;
  context.textAlign = 'center';
  for (let s = 0; s < MAX_PLAYERS; s++) {
    const e = SHIPS + s;
    if (owner[e] === 0) continue;
    ship(context, p[2 * e]!, p[2 * e + 1]!, heading[e]!, hueOf(id[e]!), id[e] === me);
    context.fillStyle = '#d6dde6';
    context.fillText(String(frame.state[SCORES[s]!]), p[2 * e]!, p[2 * e + 1]! - SHIP_RADIUS - label / 2);
  }
  drawEffects(context, effects, frame.time);
}

/** A dart with its nose along `heading`; this page's own is ringed. */
function ship(context: CanvasRenderingContext2D, x: number, y: number, heading: number, hue: number, mine: boolean): void {
  const r = SHIP_RADIUS;
  context.save();
  context.translate(x, y);
  context.rotate(heading);
  context.fillStyle = `hsl(${hue} 70% 55%)`;
  context.beginPath();
  context.moveTo(r, 0);
  context.lineTo(-0.8 * r, 0.75 * r);
  context.lineTo(-0.4 * r, 0);
  context.lineTo(-0.8 * r, -0.75 * r);
  context.closePath();
  context.fill();
  context.restore();
  if (!mine) return;
  context.strokeStyle = '#fff';
  context.lineWidth = 2;
  context.beginPath();
  context.arc(x, y, r + 6, 0, 2 * Math.PI);
  context.stroke();
}

/** The beams and bursts still showing at frame time `now`; the faded ones are dropped from `effects`. */
function drawEffects(context: CanvasRenderingContext2D, effects: Effect[], now: number): void {
  let kept = 0;
  for (const effect of effects) {
    const age = (now - effect.at) / (effect.kind === 'beam' ? BEAM_MS : BURST_MS);
    if (age >= 1) continue;
    effects[kept++] = effect;
    const fade = 1 - Math.max(0, age);
    context.strokeStyle = `hsl(${effect.hue} 90% 70% / ${fade})`;
    context.beginPath();
    if (effect.kind === 'beam') {
      context.lineWidth = 3;
      context.moveTo(effect.from[0], effect.from[1]);
      context.lineTo(effect.to[0], effect.to[1]);
    } else {
      context.lineWidth = 4;
      context.arc(effect.to[0], effect.to[1], SHIP_RADIUS * (0.5 + 1.5 * Math.max(0, age)), 0, 2 * Math.PI);
    }
    context.stroke();
  }
  effects.length = kept;
}
