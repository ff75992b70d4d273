/**
 * sound.ts against a stand-in AudioContext (Node has none): silent until a gesture wakes it, then each frame's
 * events start at most one burst voice and one shot voice at the context's current time, however many came.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FrameEvents } from 'steadyframe';
import { EVENT } from '../../src/schema.ts';
import { createSound } from '../../src/sound.ts';

/** What the stand-in saw: each source started, with its time. */
let starts: Array<{ kind: string; at: number }> = [];
let contexts = 0;

const param = () => ({ value: 0, setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} });
const node = (kind: string, context: FakeAudioContext) => ({
  buffer: null as unknown,
  type: '',
  onended: null as unknown,
  gain: param(),
  frequency: param(),
  connect: <T>(next: T): T => next,
  start: () => starts.push({ kind, at: context.currentTime }),
  stop: () => {},
});

class FakeAudioContext {
  state: AudioContextState = 'suspended';
  currentTime = 12.5;
  sampleRate = 8000;
  destination = {};
  constructor() {
    contexts++;
  }
  resume(): Promise<void> {
    this.state = 'running';
    return Promise.resolve();
  }
  createGain = () => node('gain', this);
  createBiquadFilter = () => node('filter', this);
  createOscillator = () => node('oscillator', this);
  createBufferSource = () => node('noise', this);
  createBuffer = (_channels: number, length: number) => ({ getChannelData: () => new Float32Array(length) });
}

/** A frame's events: `codes[i]` with payload (0, 0, tier, 0). */
function events(codes: number[], tier = 1): FrameEvents {
  return {
    length: codes.length,
    tick: () => 7,
    code: (i) => codes[i]!,
    sequence: (i) => i,
    payload: (_i, j) => (j === 2 ? tier : 0),
    forEach: () => {},
  };
}

beforeEach(() => {
  starts = [];
  contexts = 0;
  (globalThis as { AudioContext?: unknown }).AudioContext = FakeAudioContext;
});
afterEach(() => {
  delete (globalThis as { AudioContext?: unknown }).AudioContext;
});

describe('the arena\'s sounds', () => {
  it('stay silent, and make no context, until the first key, touch or click', async () => {
    const target = new EventTarget();
    const sound = createSound(target);
    expect(sound.answer(events([EVENT.burst, EVENT.shot]))).toEqual({ bursts: 1, shots: 1, voices: 0 });
    expect(sound.state).toBe('none');
    expect(contexts).toBe(0);
    target.dispatchEvent(new Event('keydown'));
    await Promise.resolve();
    expect(sound.state).toBe('running');
    target.dispatchEvent(new Event('click')); // a second gesture makes no second context
    expect(contexts).toBe(1);
  });

  it.each([
    { what: 'one burst', codes: [EVENT.burst], voices: ['noise'] },
    { what: 'one shot', codes: [EVENT.shot], voices: ['oscillator'] },
    { what: 'fifty bursts and three shots', codes: [...Array<number>(50).fill(EVENT.burst), EVENT.shot, EVENT.shot, EVENT.shot], voices: ['noise', 'oscillator'] },
    { what: 'an event of another code', codes: [7], voices: [] },
    { what: 'no events', codes: [], voices: [] },
  ])('$what in a frame: voices $voices, at the current time', async ({ codes, voices }) => {
    const target = new EventTarget();
    const sound = createSound(target);
    target.dispatchEvent(new Event('pointerdown'));
    await Promise.resolve();
    const heard = sound.answer(events(codes));
    expect(heard.voices).toBe(voices.length);
    expect(starts.map((s) => s.kind)).toEqual(voices);
    expect(starts.every((s) => s.at === 12.5)).toBe(true);
    expect(sound.started).toBe(voices.length);
  });

  it('starts no more than 24 voices that have not ended', async () => {
    const target = new EventTarget();
    const sound = createSound(target);
    target.dispatchEvent(new Event('keydown'));
    await Promise.resolve();
    for (let frame = 0; frame < 40; frame++) sound.answer(events([EVENT.burst, EVENT.shot]));
    expect(sound.started).toBe(24); // none ended: the stand-in never calls onended
  });
});
