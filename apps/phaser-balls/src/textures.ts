/**
 * The example's art, drawn at start-up instead of loaded: a sheet of five 17 px balls (the frames a bounce
 * steps through, as Phaser's balls.png) and a starry backdrop. Both modes use the same textures.
 */
import type { Scene } from 'phaser';
import { BALL, FRAMES, WORLD } from './schema.ts';

const COLOURS = ['#ff5a5f', '#ffb400', '#3ec46d', '#2fa8ff', '#b15cff'];

export function makeTextures(scene: Scene): void {
  const sheet = scene.textures.createCanvas('ball', BALL * FRAMES, BALL)!;
  const ctx = sheet.getContext();
  for (let f = 0; f < FRAMES; f++) {
    const cx = f * BALL + BALL / 2;
    const cy = BALL / 2;
    const shine = ctx.createRadialGradient(cx - 3, cy - 3, 1, cx, cy, BALL / 2);
    shine.addColorStop(0, '#ffffff');
    shine.addColorStop(0.25, COLOURS[f]!);
    shine.addColorStop(1, '#1a1a2e');
    ctx.fillStyle = shine;
    ctx.beginPath();
    ctx.arc(cx, cy, BALL / 2 - 0.5, 0, 2 * Math.PI);
    ctx.fill();
    sheet.add(f, 0, f * BALL, 0, BALL, BALL);
  }
  sheet.refresh();

  const sky = scene.textures.createCanvas('sky', WORLD.width, WORLD.height)!;
  const g = sky.getContext();
  const fade = g.createLinearGradient(0, 0, 0, WORLD.height);
  fade.addColorStop(0, '#101735');
  fade.addColorStop(1, '#05060d');
  g.fillStyle = fade;
  g.fillRect(0, 0, WORLD.width, WORLD.height);
  // a fixed scatter of stars (a small linear congruential sequence: the same sky every run)
  let seed = 7;
  const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let s = 0; s < 220; s++) {
    g.fillStyle = `rgba(255, 255, 255, ${0.25 + 0.6 * next()})`;
    g.fillRect(Math.floor(next() * WORLD.width), Math.floor(next() * WORLD.height), 1 + Math.floor(next() * 2), 1);
  }
  sky.refresh();
}
