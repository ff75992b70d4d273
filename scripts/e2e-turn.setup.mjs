// The e2e project's setup file: each e2e file waits for its turn before it is imported, and gives the turn back
// after its last hook (scripts/e2e-turns.mjs says why). `afterAll` here is registered before the file's own, and
// after-all hooks run last-registered first: the turn ends once the file's browsers and servers are closed.
import { afterAll, inject } from 'vitest';
import { takeTurn } from './e2e-turns.mjs';

const endTurn = await takeTurn(inject('e2eTurns'));
afterAll(() => endTurn());
