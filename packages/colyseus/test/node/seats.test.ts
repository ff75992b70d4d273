/** A room's seats (src/seats.ts): the lowest free player number, kept until its session leaves for good. */
import { expect, it } from 'vitest';
import { Seats } from '../../src/seats.ts';

it('numbers new sessions from 0, the lowest free first, and keeps a seat until it is freed', () => {
  const seats = new Seats();
  expect([seats.take('a'), seats.take('b'), seats.take('c')]).toEqual([0, 1, 2]);
  // b dropped: its number is held while its window is open (nothing frees it), so d gets the next
  expect(seats.take('d')).toBe(3);
  expect(seats.of('b')).toBe(1);
  // a and c leave for good: the lowest of the free numbers goes first, whatever order they were freed in
  expect(seats.free('c')).toBe(2);
  expect(seats.free('a')).toBe(0);
  expect(seats.free('a')).toBeUndefined();
  expect([seats.take('e'), seats.take('f'), seats.take('g')]).toEqual([0, 2, 4]);
  expect(seats.size).toBe(5);
  expect(() => seats.take('e')).toThrow(/holds seat 0 already/);
});

it("holds a restored room's saved seats by their numbers; new sessions take the lowest left free", () => {
  const seats = new Seats();
  seats.hold('b', 1);
  seats.hold('d', 3);
  expect([...seats.entries()]).toEqual([['b', 1], ['d', 3]]);
  // 0 and 2 were free in the save's room: taken first, lowest first, then on past the highest
  expect([seats.take('e'), seats.take('f'), seats.take('g')]).toEqual([0, 2, 4]);
  expect(() => seats.hold('h', 3)).toThrow(/seat 3 is held already/);
  expect(() => seats.hold('b', 7)).toThrow(/holds seat 1 already/);
  expect(seats.free('d')).toBe(3);
  expect(seats.take('h')).toBe(3);
});
