// The order Vitest's Node workers take the files in (vitest.config.ts's `sequence.sequencer`). The e2e files run
// one at a time (each takes a turn: scripts/e2e-turns.mjs), so a worker that picks an e2e file while the other
// runs one waits for it. Vitest's own order (slowest first, by its cache; largest first on a clean clone) puts
// the e2e files together, where the second worker would wait through each. Here one e2e file goes first, the
// Node tests' files next, and the rest of the e2e files last: the second worker runs the Node tests while the
// first e2e file runs, and whichever comes free takes the next e2e file.
//
// Measured (clean-clone runs of `npm test`): this order took 1,212 and 1,250 s of Vitest, against 1,491 s with
// every Node and e2e file in one worker. Sharing the Node tests' files out between the e2e files, so that a Node test ran
// beside every e2e file, loaded the machine past what the tests' hang guards allow (8 failures, 1,380 s, with
// Firefox's projects beside Chromium's as well).
import { BaseSequencer } from 'vitest/node';

export class TurnsSequencer extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    const turns = sorted.filter((spec) => spec.project.name === 'e2e');
    const rest = sorted.filter((spec) => spec.project.name !== 'e2e');
    return [...turns.slice(0, 1), ...rest, ...turns.slice(1)];
  }
}
