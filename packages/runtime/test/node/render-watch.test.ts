/**
 * The page's watch over the render worker as a pure step of time: beats and clock readings in, events out.
 * Each row drives it by hand: `b` a beat (a frame finished), `e`/`x` frames expected or not, a number a check
 * at that time.
 */
import { describe, expect, it } from 'vitest';
import { beat, createRenderBeat, readBeat } from '../../src/core/render-beat.ts';
import { RenderWatch } from '../../src/main/render-watch.ts';

type Step = 'b' | 'e' | 'x' | number;

function run(steps: Step[], timeout = 100): string[] {
  const words = createRenderBeat();
  const out: string[] = [];
  const watch = new RenderWatch(() => readBeat(words).frames, timeout, (type, event) => out.push(`${type} ${event.silentMs}`));
  for (const step of steps) {
    if (step === 'b') beat(words, true);
    else if (step === 'e') watch.expect(true);
    else if (step === 'x') watch.expect(false);
    else watch.check(step);
  }
  return out;
}

describe('RenderWatch', () => {
  it.each([
    ['beats every check: nothing', ['e', 0, 'b', 50, 'b', 100, 'b', 150, 'b', 200], []],
    ['silence past the timeout: unresponsive, once', ['e', 0, 'b', 10, 50, 100, 111, 200, 300], ['renderUnresponsive 101']],
    ['silence up to the timeout: nothing', ['e', 0, 'b', 10, 110], []],
    ['the beat returns: responsive, with the whole silence', ['e', 0, 'b', 10, 60, 120, 'b', 400], ['renderUnresponsive 110', 'renderResponsive 390']],
    ['frames not expected (stopped, hidden): silence is no fault', ['b', 0, 500, 1000, 5000], []],
    ['not expected from the start', [0, 'e', 1000, 1050, 1101, 1102], ['renderUnresponsive 101']],
    ['hidden then shown: silence measured afresh from the first check after', ['e', 0, 'b', 10, 'x', 500, 'e', 600, 650, 701], ['renderUnresponsive 101']],
    ['shown and beating again before the timeout: nothing', ['e', 0, 'b', 10, 'x', 500, 'e', 600, 'b', 650, 'b', 740], []],
    ['hidden while unresponsive, shown, beating: responsive over the whole silence', ['e', 0, 'b', 10, 100, 200, 'x', 'e', 'b', 900], ['renderUnresponsive 190', 'renderResponsive 890']],
    ["the page's own timers stopped (a frozen page): silence measured afresh from the check after", ['e', 0, 'b', 10, 60, 1000, 1050, 1101], ['renderUnresponsive 101']],
    ["the page's timers stopped, the render worker beats after: nothing", ['e', 0, 'b', 10, 60, 1000, 'b', 1050, 1100], []],
    // what the browser's render-worker-watch test sees on a loaded machine: a render worker starved past the
    // timeout now and then, each spell its own pair, in order, and a hang its own
    ['starved spells and a hang: each an alarm past the timeout and its answer, in order', ['e', 0, 'b', 10, 60, 111, 'b', 130, 'b', 150, 200, 261, 'b', 270, 320, 370, 400, 450, 500, 550, 600, 650, 700, 750, 800, 850, 900, 950, 1000, 'b', 1010], ['renderUnresponsive 101', 'renderResponsive 120', 'renderUnresponsive 111', 'renderResponsive 120', 'renderUnresponsive 130', 'renderResponsive 740']],
    ['stopped while silent (the page stops the runtime), its timers looking on: no alarm, however long', ['e', 0, 'b', 10, 60, 'x', ...Array.from({ length: 40 }, (_, i) => 100 + 50 * i), 'e', 2100, 'b', 2150], []],
  ] as Array<[string, Step[], string[]]>)('%s', (_, steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });

  it('never fires with an infinite timeout', () => {
    expect(run(['e', 0, 'b', 10, 1e6, 1e9], Number.POSITIVE_INFINITY)).toEqual([]);
  });

  it('counts frames and drawn frames apart, unsigned past 2^31', () => {
    const words = createRenderBeat();
    beat(words, true);
    beat(words, false);
    expect(readBeat(words)).toEqual({ frames: 2, drawn: 1 });
    words[0] = -1; // 2^32 - 1 frames
    expect(readBeat(words).frames).toBe(2 ** 32 - 1);
  });
});
