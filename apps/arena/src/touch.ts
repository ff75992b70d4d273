/**
 * Page side of the touch controls: a pad that moves (eight ways: a thumb slid around it changes course without
 * lifting) and a fire button. They send what the keyboard sends, `runtime.sendInput(INPUT.down | INPUT.up,
 * button)`, one event per change, so the worker cannot tell a thumb from a key. Each finger is a pointer of its
 * own: one on the pad and one on fire at once is the usual grip.
 *
 * ```text
 *          up            the pad, from its centre: 8 sectors of 45 degrees
 *     up+left  up+right  (a diagonal holds two buttons), and a dead zone
 *   left    ·    right   in the middle (a resting thumb holds none)
 *   down+left down+right
 *         down
 * ```
 *
 * Shown where the primary pointer is coarse (a phone, a tablet), and from the first touch anywhere (a laptop's
 * touch screen); hidden otherwise.
 */
import type { Runtime } from 'steadyframe';
import { BUTTON, BUTTONS, INPUT, type ArenaSchema } from './schema.ts';

/** The pad's dead zone, a fraction of its radius: a thumb resting near the middle holds nothing. */
const DEAD_ZONE = 0.2;

/** Sector i of 8, clockwise from +x (screen y points down), and the buttons it holds. */
const SECTORS: readonly (readonly number[])[] = [
  [BUTTON.right],
  [BUTTON.right, BUTTON.down],
  [BUTTON.down],
  [BUTTON.down, BUTTON.left],
  [BUTTON.left],
  [BUTTON.left, BUTTON.up],
  [BUTTON.up],
  [BUTTON.up, BUTTON.right],
];
const NONE: readonly number[] = [];

/** The buttons a point holds on a pad centred at (cx, cy) of radius r. */
export function padButtons(x: number, y: number, cx: number, cy: number, r: number): readonly number[] {
  const dx = x - cx;
  const dy = y - cy;
  if (Math.hypot(dx, dy) < DEAD_ZONE * r) return NONE;
  const sector = Math.round(Math.atan2(dy, dx) / (Math.PI / 4));
  return SECTORS[(sector + 8) % 8]!;
}

export interface TouchElements {
  /** The block that holds the pad and the button; shown by the `touch` class on `root`. */
  readonly root: HTMLElement;
  readonly pad: HTMLElement;
  readonly fire: HTMLElement;
}

/** Starts listening; returns the function that stops (and releases whatever is held). */
export function bindTouch(runtime: Pick<Runtime<ArenaSchema>, 'sendInput'>, elements: TouchElements, target: Window = window): () => void {
  const { root, pad, fire } = elements;
  /** Per pointer, the buttons it holds. */
  const pointers = new Map<number, readonly number[]>();
  /** Per button, whether the page has sent it down (the union over the pointers). */
  const held = new Array<boolean>(BUTTONS).fill(false);
  const publish = (): void => {
    const now = new Array<boolean>(held.length).fill(false);
    for (const buttons of pointers.values()) for (const button of buttons) now[button] = true;
    for (let button = 0; button < held.length; button++) {
      if (now[button] === held[button]) continue;
      held[button] = now[button]!;
      runtime.sendInput(held[button] ? INPUT.down : INPUT.up, button);
      if (button !== BUTTON.fire) pad.querySelector(`[data-button="${button}"]`)?.classList.toggle('held', held[button]);
    }
    fire.classList.toggle('held', held[BUTTON.fire]!);
  };
  const onPad = (event: PointerEvent): void => {
    if (event.type === 'pointerdown') pad.setPointerCapture(event.pointerId); // a thumb that slides off still steers
    else if (!pointers.has(event.pointerId)) return; // a mouse moving over the pad, no button down
    const box = pad.getBoundingClientRect();
    const r = box.width / 2;
    pointers.set(event.pointerId, padButtons(event.clientX, event.clientY, box.left + r, box.top + box.height / 2, r));
    event.preventDefault();
    publish();
  };
  const onFire = (event: PointerEvent): void => {
    fire.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, [BUTTON.fire]);
    event.preventDefault();
    publish();
  };
  const onLift = (event: PointerEvent): void => {
    if (pointers.delete(event.pointerId)) publish();
  };
  // a finger held while the page loses focus or is hidden may never send its pointerup: release everything
  const releaseAll = (): void => {
    pointers.clear();
    publish();
  };
  const onVisibility = (): void => {
    if (document.hidden) releaseAll();
  };
  const coarse = target.matchMedia('(pointer: coarse)');
  const show = (): void => {
    root.classList.toggle('touch', coarse.matches || root.classList.contains('touched'));
  };
  const onAnyTouch = (event: PointerEvent): void => {
    if (event.pointerType !== 'touch' || root.classList.contains('touched')) return;
    root.classList.add('touched');
    show();
  };
  const noMenu = (event: Event): void => event.preventDefault(); // a long press is a held button, not a menu
  const listeners: Array<[EventTarget, string, (event: never) => void]> = [
    [pad, 'pointerdown', onPad],
    [pad, 'pointermove', onPad],
    [pad, 'pointerup', onLift],
    [pad, 'pointercancel', onLift],
    [pad, 'contextmenu', noMenu],
    [fire, 'pointerdown', onFire],
    [fire, 'pointerup', onLift],
    [fire, 'pointercancel', onLift],
    [fire, 'contextmenu', noMenu],
    [target, 'blur', releaseAll],
    [target.document, 'visibilitychange', onVisibility],
    [target, 'pointerdown', onAnyTouch],
    [coarse, 'change', show],
  ];
  for (const [on, type, listener] of listeners) on.addEventListener(type, listener as EventListener);
  show();
  return () => {
    for (const [on, type, listener] of listeners) on.removeEventListener(type, listener as EventListener);
    releaseAll();
  };
}
