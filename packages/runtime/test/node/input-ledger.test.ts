/** The input ledger (src/net/input-ledger.ts): which of a client's inputs a state's INPUTS_THROUGH covers. */
import { expect, it } from 'vitest';
import { InputLedger } from '../../src/net/input-ledger.ts';

it("says the newest of the client's numbers below the state's ring sequence, other clients' events between", () => {
  const ledger = new InputLedger(8);
  expect(ledger.reflect(100)).toBe(-1);
  ledger.note(40, 7);
  ledger.note(41, 8);
  ledger.note(44, 9);
  ledger.note(47, 10);
  expect(ledger.reflect(40)).toBe(-1); // through 40: sequence 40 not consumed yet
  expect(ledger.reflect(45)).toBe(9);
  expect(ledger.reflect(45)).toBe(9); // the same state again: nothing more
  expect(ledger.reflect(48)).toBe(10);
  expect(ledger.reflected).toBe(10);
});

it('keeps the newest mod 2^32: across the wrap, and not moved back by an overtaken event consumed after a newer one', () => {
  const ledger = new InputLedger(8);
  ledger.note(0, 2 ** 32 - 1);
  ledger.note(1, 0);
  expect(ledger.reflect(2)).toBe(0);
  ledger.note(2, 3);
  ledger.note(3, 1); // overtaken: taken after 3
  expect(ledger.reflect(4)).toBe(3);
});

it('holds at most its capacity: the oldest counted consumed when full (states went unread that long)', () => {
  const ledger = new InputLedger(2);
  ledger.note(0, 0);
  ledger.note(1, 1);
  ledger.note(2, 2); // full: 0 counted consumed
  expect(ledger.reflected).toBe(0);
  expect(ledger.reflect(2)).toBe(1);
  expect(ledger.reflect(3)).toBe(2);
});
