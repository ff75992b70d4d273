/**
 * The catch-up wait's give-up rule (main/catch-up-wait.ts; ARCHITECTURE.md, "Frames that come later than
 * announced"), frame by frame with a transport made by hand: three waits in a row that give up stop the waits for
 * a spell; the probe after a spell that gives up too doubles the next one, up to CATCH_UP_MAX_BACKOFF_MS; a wait
 * that reaches the worker ends it all, and a worker that falls behind again starts from a one-second spell.
 * (The same rule with a real runtime and worker on the manual clock: stalls.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { PageHost } from '../../src/contracts/host.ts';
import type { PageTransport } from '../../src/contracts/transport.ts';
import { CATCH_UP_BACKOFF_MS, CATCH_UP_GIVE_UP, CATCH_UP_MAX_BACKOFF_MS, CATCH_UP_WAIT_MS } from '../../src/core/frame-catch-up.ts';
import { I32, STATUS } from '../../src/core/layout.ts';
import type { Schema } from '../../src/core/schema.ts';
import { CatchUpWait } from '../../src/main/catch-up-wait.ts';

const R = 1000 / 60;

/** A page whose worker is always 10 ms behind each frame; `reaches` says whether a wait finds its states. */
function page() {
  let now = 0;
  const header = new Int32Array(64);
  header[I32.STATUS] = STATUS.RUNNING;
  const transport = {
    covered: () => now - 10,
    header,
    source: { publishCount: () => 0, acquire: () => null, release: () => {} },
  } as unknown as PageTransport<Schema>;
  const state = { reaches: false };
  // a wait that gives up spins to its deadline; one that reaches returns at once
  const waitFor: PageHost['waitFor'] = (_reached, until) => {
    if (!state.reaches) now = until;
    return state.reaches;
  };
  const wait = new CatchUpWait(transport, () => now, waitFor, () => {});
  /** `count` frames a refresh apart, each drawn when its callback runs: what each did ('wait', 'timeout', 'unwaited'). */
  const frames = (count: number): string[] => {
    const did: string[] = [];
    for (let i = 0; i < count; i++) {
      now = Math.ceil(now / R + 1e-9) * R; // the next refresh
      const before = { ...wait.stats };
      wait.run(now, now, false);
      const s = wait.stats;
      did.push(s.timeouts > before.timeouts ? 'timeout' : s.unwaited > before.unwaited ? 'unwaited' : s.waits > before.waits ? 'wait' : 'none');
    }
    return did;
  };
  return { state, frames, stats: wait.stats };
}

/** The runs of `did`: [what, how many in a row]. */
function runs(did: readonly string[]): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const d of did) {
    if (out.at(-1)?.[0] === d) out.at(-1)![1]++;
    else out.push([d, 1]);
  }
  return out;
}

describe('the catch-up wait gives up on a worker that cannot keep up, ever less often, and starts again when it can', () => {
  // a wait that gives up ends 4 ms after its frame, so a spell that starts there covers whole refreshes: 1 s is 60
  it('spells without waits of 1, 2, 4, 8, 8 s, each after a probe that gave up', () => {
    expect([CATCH_UP_GIVE_UP, CATCH_UP_BACKOFF_MS, CATCH_UP_MAX_BACKOFF_MS, CATCH_UP_WAIT_MS]).toEqual([3, 1000, 8000, 4]);
    const p = page();
    expect(runs(p.frames(1500))).toEqual([
      ['timeout', 3],
      ['unwaited', 60],
      ['timeout', 1],
      ['unwaited', 120],
      ['timeout', 1],
      ['unwaited', 240],
      ['timeout', 1],
      ['unwaited', 480],
      ['timeout', 1],
      ['unwaited', 480],
      ['timeout', 1],
      ['unwaited', 112],
    ]);
  });

  it('a wait that reaches the worker ends the spells: falling behind again costs three waits and a one-second spell', () => {
    const p = page();
    expect(runs(p.frames(64))).toEqual([['timeout', 3], ['unwaited', 60], ['timeout', 1]]); // a 2 s spell begins
    p.state.reaches = true;
    expect(runs(p.frames(130))).toEqual([['unwaited', 120], ['wait', 10]]);
    p.state.reaches = false;
    expect(runs(p.frames(70))).toEqual([['timeout', 3], ['unwaited', 60], ['timeout', 1], ['unwaited', 6]]);
  });
});
