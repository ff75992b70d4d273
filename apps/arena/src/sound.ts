/**
 * The game's sounds, synthesised (no audio files): a noise burst for a rock that bursts, a falling blip for a
 * shot. One AudioContext for the page, made and resumed on the first key, touch or click (the autoplay policy
 * keeps a context made before that suspended). Each sound starts at `currentTime` when the frame that shows its
 * event is presented (`answer`), so it is heard with the picture, not when a message lands.
 *
 * ```text
 *  frame presents events ─▶ answer(events) ─▶ ≤ 1 burst voice + ≤ 1 shot voice, at audio.currentTime
 *                                              (50 rocks in one frame: one louder, bigger burst, not 50 voices)
 * ```
 */
import type { FrameEvents } from 'steadyframe';
import { EVENT } from './schema.ts';

/** What counts as a user's gesture for the autoplay policy. */
const GESTURES = ['keydown', 'pointerdown', 'touchend', 'click'] as const;
/** Voices sounding at once, most: past it a frame's events stay silent (counted in `answered`, not heard). */
const MAX_LIVE = 24;
/** Seconds a burst of each tier (small, medium, big) rings, and its filter's top frequency. */
const BURST_SECONDS = [0.16, 0.26, 0.42] as const;
const BURST_HZ = [4200, 2600, 1500] as const;

export interface FrameSounds {
  /** Burst and shot events this frame presented. */
  bursts: number;
  shots: number;
  /** Voices started for them: 0, 1 or 2 (none while the context is not running). */
  voices: number;
}

export interface ArenaSound {
  /** Answers one presented frame's events: starts its voices now. Reuses the returned object. */
  answer(events: FrameEvents): FrameSounds;
  /** The context's state, or 'none' before the first key, touch or click. */
  readonly state: AudioContextState | 'none';
  /** Voices started so far. */
  readonly started: number;
}

export function createSound(target: EventTarget = globalThis): ArenaSound {
  let audio: AudioContext | null = null;
  let noise: AudioBuffer | null = null;
  let out: GainNode | null = null;
  let live = 0;
  let started = 0;
  const report: FrameSounds = { bursts: 0, shots: 0, voices: 0 };

  const wake = (): void => {
    if (audio === null) {
      audio = new AudioContext();
      out = audio.createGain();
      out.gain.value = 0.5;
      out.connect(audio.destination);
      noise = audio.createBuffer(1, Math.ceil(audio.sampleRate * 0.5), audio.sampleRate);
      const samples = noise.getChannelData(0);
      for (let i = 0; i < samples.length; i++) samples[i] = Math.random() * 2 - 1; // a sound, not the game: no seed
    }
    if (audio.state !== 'running') void audio.resume();
    else for (const type of GESTURES) target.removeEventListener(type, wake, true);
  };
  for (const type of GESTURES) target.addEventListener(type, wake, true);

  const ended = (): void => {
    live--;
  };

  function burst(a: AudioContext, tier: number, count: number): void {
    const t = a.currentTime;
    const s = BURST_SECONDS[tier as 0 | 1 | 2] ?? BURST_SECONDS[0];
    const src = a.createBufferSource();
    src.buffer = noise;
    const filter = a.createBiquadFilter();
    filter.type = 'lowpass';
    filter.frequency.setValueAtTime(BURST_HZ[tier as 0 | 1 | 2] ?? BURST_HZ[0], t);
    filter.frequency.exponentialRampToValueAtTime(120, t + s);
    const gain = a.createGain();
    gain.gain.setValueAtTime(Math.min(1, 0.35 * (1 + Math.log2(count))), t); // more rocks: louder, up to a cap
    gain.gain.exponentialRampToValueAtTime(0.001, t + s);
    src.connect(filter).connect(gain).connect(out!);
    src.onended = ended;
    src.start(t);
    src.stop(t + s);
  }

  function shot(a: AudioContext): void {
    const t = a.currentTime;
    const osc = a.createOscillator();
    osc.type = 'square';
    osc.frequency.setValueAtTime(1100, t);
    osc.frequency.exponentialRampToValueAtTime(260, t + 0.08);
    const gain = a.createGain();
    gain.gain.setValueAtTime(0.07, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + 0.09);
    osc.connect(gain).connect(out!);
    osc.onended = ended;
    osc.start(t);
    osc.stop(t + 0.09);
  }

  return {
    answer(events) {
      let bursts = 0;
      let shots = 0;
      let tier = -1;
      for (let i = 0; i < events.length; i++) {
        const code = events.code(i);
        if (code === EVENT.burst) {
          bursts++;
          tier = Math.max(tier, events.payload(i, 2));
        } else if (code === EVENT.shot) shots++;
      }
      report.bursts = bursts;
      report.shots = shots;
      report.voices = 0;
      const a = audio;
      if (a === null || a.state !== 'running') return report; // scheduled later, they would all sound at once
      if (bursts > 0 && live < MAX_LIVE) {
        burst(a, tier, bursts);
        report.voices++;
      }
      if (shots > 0 && live + report.voices < MAX_LIVE) {
        shot(a);
        report.voices++;
      }
      live += report.voices;
      started += report.voices;
      return report;
    },
    get state() {
      return audio === null ? 'none' : audio.state;
    },
    get started() {
      return started;
    },
  };
}
