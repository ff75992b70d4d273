/**
 * The main-thread pages' floor (main-thread.ts): the same animation-frame loop with nothing to draw, so what the
 * browser itself spends on the thread each frame (its frame pipeline for an empty page) is measured beside them.
 */
import { runFrames } from './measure.ts';

const hooks = runFrames(() => 0);
hooks.ready = true;
