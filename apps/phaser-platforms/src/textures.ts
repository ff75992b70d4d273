/**
 * The art, drawn at start-up instead of loaded: one sheet of three 32 px frames (a grassy block, a crate, a
 * ball; LOOK names them), stretched to each body's size, and a sky with hills.
 */
import type { Scene } from 'phaser';
import { LOOK, WORLD } from './schema.ts';

const FRAME = 32;

export function makeTextures(scene: Scene): void {
  const sheet = scene.textures.createCanvas('things', FRAME * 3, FRAME)!;
  const ctx = sheet.getContext();
  // the block: earth with a strip of grass
  let x = LOOK.block * FRAME;
  ctx.fillStyle = '#7a4e2d';
  ctx.fillRect(x, 0, FRAME, FRAME);
  ctx.fillStyle = '#4fbf4a';
  ctx.fillRect(x, 0, FRAME, 10);
  // the crate: boards and a cross brace
  x = LOOK.crate * FRAME;
  ctx.fillStyle = '#e0a040';
  ctx.fillRect(x, 0, FRAME, FRAME);
  ctx.strokeStyle = '#8a5a18';
  ctx.lineWidth = 3;
  ctx.strokeRect(x + 1.5, 1.5, FRAME - 3, FRAME - 3);
  ctx.beginPath();
  ctx.moveTo(x + 3, 3);
  ctx.lineTo(x + FRAME - 3, FRAME - 3);
  ctx.stroke();
  // the ball: a shaded disc with a stripe, so its turning shows
  x = LOOK.ball * FRAME;
  const shine = ctx.createRadialGradient(x + 11, 11, 2, x + 16, 16, 16);
  shine.addColorStop(0, '#ffffff');
  shine.addColorStop(0.3, '#36a3ff');
  shine.addColorStop(1, '#123a8a');
  ctx.fillStyle = shine;
  ctx.beginPath();
  ctx.arc(x + 16, 16, 15.5, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = '#ffd23a';
  ctx.fillRect(x + 14, 1, 4, 30);
  for (const look of Object.values(LOOK)) sheet.add(look, 0, look * FRAME, 0, FRAME, FRAME);
  sheet.refresh();

  const sky = scene.textures.createCanvas('sky', WORLD.width, WORLD.height)!;
  const g = sky.getContext();
  const fade = g.createLinearGradient(0, 0, 0, WORLD.height);
  fade.addColorStop(0, '#1b2452');
  fade.addColorStop(1, '#3b5a8a');
  g.fillStyle = fade;
  g.fillRect(0, 0, WORLD.width, WORLD.height);
  g.fillStyle = '#2a3f6a';
  for (let h = 0; h < 5; h++) {
    g.beginPath();
    g.arc(80 + h * 170, WORLD.height + 40, 150 + (h % 2) * 40, Math.PI, 2 * Math.PI);
    g.fill();
  }
  sky.refresh();
}
