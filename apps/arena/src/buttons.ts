/**
 * Worker side of the keyboard: which buttons are down, from this tick's input events. A press and a release
 * inside one tick both count: the button acts for that tick (a tap is never lost between two ticks).
 */
import type { TickInput } from 'steadyframe/worker';
import { BUTTONS, INPUT } from './schema.ts';

export class Buttons {
  readonly held = new Array<boolean>(BUTTONS).fill(false);
  /** Pressed at some point during the current tick (cleared by `read` at the next one). */
  readonly tapped = new Array<boolean>(BUTTONS).fill(false);
  /** Events read so far. */
  events = 0;
  /** Presses so far, per button. */
  readonly presses = new Array<number>(BUTTONS).fill(0);
  /** The tick that read each button's last press. */
  readonly pressTicks = new Array<number>(BUTTONS).fill(-1);

  /** Takes the events of tick number `tick`, in order. */
  read(input: TickInput, tick: number): void {
    this.tapped.fill(false);
    for (let i = 0; i < input.length; i++) {
      const button = input.payload(i, 0);
      if (!Number.isInteger(button) || button < 0 || button >= BUTTONS) continue;
      const code = input.code(i);
      if (code === INPUT.down) {
        if (!this.held[button]) this.presses[button]!++;
        this.held[button] = true;
        this.tapped[button] = true;
        this.pressTicks[button] = tick;
      } else if (code === INPUT.up) {
        this.held[button] = false;
      } else continue;
      this.events++;
    }
  }

  /** Whether `button` acts this tick: held now, or pressed during it. */
  active(button: number): boolean {
    return this.held[button]! || this.tapped[button]!;
  }
}
