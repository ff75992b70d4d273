/**
 * The touch pad's one decision, a point to the buttons it holds (touch.ts `padButtons`), as a table: eight
 * sectors of 45 degrees around the centre (screen y down), diagonals holding two buttons, a dead zone in the
 * middle, and a thumb slid off the pad still steering by its direction.
 */
import { describe, expect, it } from 'vitest';
import { BUTTON } from '../../src/schema.ts';
import { padButtons } from '../../src/touch.ts';

const { left, right, up, down } = BUTTON;
const at = (degrees: number, distance: number): readonly number[] => {
  const angle = (degrees * Math.PI) / 180;
  return padButtons(100 + distance * Math.cos(angle), 100 + distance * Math.sin(angle), 100, 100, 50);
};

describe('padButtons (a pad centred at 100, 100 of radius 50)', () => {
  it.each([
    [0, [right]],
    [20, [right]],
    [25, [right, down]],
    [45, [right, down]],
    [90, [down]],
    [135, [down, left]],
    [180, [left]],
    [-180, [left]],
    [-135, [left, up]],
    [-90, [up]],
    [-70, [up]],
    [-45, [up, right]],
    [-20, [right]],
  ])('at %i degrees (y down): %j', (degrees, buttons) => {
    expect([...at(degrees, 40)].sort()).toEqual([...buttons].sort());
  });

  it('holds nothing in the dead zone, a fifth of the radius', () => {
    for (const degrees of [0, 45, 90, 200, 300]) expect(at(degrees, 9)).toEqual([]);
    expect(at(0, 11)).toEqual([right]);
  });

  it('steers by direction alone past the rim (a thumb slid off the pad, its pointer captured)', () => {
    expect(at(180, 400)).toEqual([left]);
    expect([...at(-45, 400)].sort()).toEqual([up, right].sort());
  });
});
