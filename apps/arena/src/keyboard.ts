/**
 * Page side of the keyboard: arrows or WASD move, space fires. Every press and release goes to the worker as
 * an input event stamped now (`runtime.sendInput`); the worker decides which tick it falls in.
 */
import type { Runtime } from 'steadyframe';
import { BUTTON, INPUT, type ArenaSchema } from './schema.ts';

const KEYS: Record<string, number> = {
  ArrowLeft: BUTTON.left, KeyA: BUTTON.left,
  ArrowRight: BUTTON.right, KeyD: BUTTON.right,
  ArrowUp: BUTTON.up, KeyW: BUTTON.up,
  ArrowDown: BUTTON.down, KeyS: BUTTON.down,
  Space: BUTTON.fire,
};

/** Starts listening; returns the function that stops. */
export function bindKeyboard(runtime: Pick<Runtime<ArenaSchema>, 'sendInput'>, target: Window = window): () => void {
  const down = new Set<string>();
  const onDown = (event: KeyboardEvent): void => {
    const button = KEYS[event.code];
    if (button === undefined) return;
    event.preventDefault();
    if (event.repeat || down.has(event.code)) return;
    down.add(event.code);
    runtime.sendInput(INPUT.down, button);
  };
  const onUp = (event: KeyboardEvent): void => {
    const button = KEYS[event.code];
    if (button === undefined || !down.delete(event.code)) return;
    runtime.sendInput(INPUT.up, button);
  };
  // a key held while the window loses focus never sends keyup: release everything
  const onBlur = (): void => {
    for (const code of down) runtime.sendInput(INPUT.up, KEYS[code]!);
    down.clear();
  };
  target.addEventListener('keydown', onDown);
  target.addEventListener('keyup', onUp);
  target.addEventListener('blur', onBlur);
  return () => {
    target.removeEventListener('keydown', onDown);
    target.removeEventListener('keyup', onUp);
    target.removeEventListener('blur', onBlur);
  };
}
