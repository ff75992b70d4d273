/**
 * The controls: the keys held steer (arrows or WASD), Space fires ahead; a mouse press on the field fires at the
 * point; a thumb steers by sliding from where it pressed, and a tap (a press let go without sliding) fires at it.
 *
 * ```text
 *  keys      ←↑↓→ / WASD held ──▶ steer(sign x, sign y)        Space ──▶ fireAhead()
 *  mouse     press at P ──▶ fireAt(P)
 *  thumb     press at A, slide to B (past SLIDE px) ──▶ steer(unit A→B)      let go ──▶ steer(0, 0)
 *            press at A, let go without sliding ──▶ fireAt(A)
 * ```
 */
import { toWorld } from './draw.ts';

export interface ControlHandlers {
  /** The steering held now, each axis in −1..1 (called on every change only). */
  steer(dx: number, dy: number): void;
  /** A shot at a point of the arena (world units). */
  fireAt(x: number, y: number): void;
  /** A shot along the ship's heading. */
  fireAhead(): void;
}

/** Px a thumb slides before it steers (less is a tap). */
const SLIDE = 12;
const KEYS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], KeyA: [-1, 0], ArrowRight: [1, 0], KeyD: [1, 0], ArrowUp: [0, -1], KeyW: [0, -1], ArrowDown: [0, 1], KeyS: [0, 1] };

export function bindControls(pad: HTMLElement, canvas: HTMLCanvasElement, handlers: ControlHandlers): void {
  const held = new Set<string>();
  let steering = [0, 0];
  const steer = (dx: number, dy: number): void => {
    if (dx === steering[0] && dy === steering[1]) return;
    steering = [dx, dy];
    handlers.steer(dx, dy);
  };
  const fromKeys = (): void => {
    let dx = 0;
    let dy = 0;
    for (const code of held) {
      dx += KEYS[code]![0];
      dy += KEYS[code]![1];
    }
    steer(Math.sign(dx), Math.sign(dy));
  };
  addEventListener('keydown', (event) => {
    if (event.code === 'Space') {
      event.preventDefault();
      if (!event.repeat) handlers.fireAhead();
      return;
    }
    if (!(event.code in KEYS)) return;
    event.preventDefault();
    held.add(event.code);
    fromKeys();
  });
  addEventListener('keyup', (event) => {
    held.delete(event.code);
    fromKeys();
  });
  addEventListener('blur', () => {
    held.clear();
    fromKeys();
  });
  const at = (event: PointerEvent): [number, number] => {
    const rect = canvas.getBoundingClientRect();
    return toWorld(canvas, event.clientX - rect.left, event.clientY - rect.top);
  };
  let thumb: { from: [number, number]; slid: boolean } | null = null;
  pad.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse') {
      handlers.fireAt(...at(event));
      return;
    }
    thumb = { from: [event.clientX, event.clientY], slid: false };
    pad.setPointerCapture(event.pointerId);
  });
  pad.addEventListener('pointermove', (event) => {
    if (thumb === null) return;
    const dx = event.clientX - thumb.from[0];
    const dy = event.clientY - thumb.from[1];
    const length = Math.hypot(dx, dy);
    if (length < SLIDE) return;
    thumb.slid = true;
    steer(Math.round((100 * dx) / length) / 100, Math.round((100 * dy) / length) / 100);
  });
  pad.addEventListener('pointerup', (event) => {
    if (thumb !== null && !thumb.slid) handlers.fireAt(...at(event));
    thumb = null;
    steer(0, 0);
  });
  pad.addEventListener('pointercancel', () => {
    thumb = null;
    steer(0, 0);
  });
}
