// The order Vitest's Node workers take the files in (vitest.config.ts's `sequence.sequencer`). The e2e files run
// one at a time (each takes a turn: scripts/e2e-turns.mjs), so a worker that picks an e2e file while the other
// runs one waits for it, and starts it the moment the other ends. The e2e files are the longest chain of a run:
// it should never wait on Node tests. Vitest's own order (slowest first, by its cache; largest first on a clean
// clone) puts the e2e files together, where the Node tests would wait until the last e2e file was taken; the
// Node tests all first would hold both workers while the e2e files wait. Here each e2e file is followed by an
// equal share of the Node tests' files: while one worker runs an e2e file, the other runs a share, then takes the
// next e2e file and waits for its turn.
import { BaseSequencer } from 'vitest/node';

export class TurnsSequencer extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    const turns = sorted.filter((spec) => spec.project.name === 'e2e');
    // the Node tests' files only: the browser projects' files go to their engines' pools, whatever their place here
    const node = sorted.filter((spec) => spec.project.name === 'node');
    const others = sorted.filter((spec) => spec.project.name !== 'e2e' && spec.project.name !== 'node');
    if (turns.length === 0) return sorted;
    const share = Math.ceil(node.length / turns.length);
    return [...turns.flatMap((turn, i) => [turn, ...node.slice(i * share, (i + 1) * share)]), ...others];
  }
}
