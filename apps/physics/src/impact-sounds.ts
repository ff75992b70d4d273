/**
 * Impact sounds from contact events: each drawn frame, the loudest few contact starts (EVENT.impact) it presents (by impulse)
 * become short synthesised knocks, played as the frame is drawn, so a box is heard in the frame that shows it
 * land. No sound files: a knock is a burst of noise through a band-pass filter and a falling sine, both under a
 * fast exponential decay, louder and brighter the harder the blow.
 *
 * ```text
 *  rAF ─▶ runtime.pace() true ─▶ sounds.present(runtime.events): keep the VOICES_PER_FRAME largest impulses
 *                                   (a fixed-size insertion, nothing allocated) ─▶ one knock each, now
 * ```
 *
 * Browsers start an AudioContext suspended until the page gets a gesture: the one context is made (or resumed)
 * on the first pointer or key press, and frames before that choose their voices but play nothing.
 */
import type { FrameEvents } from 'steadyframe';
import { ARENA_BODIES, EVENT } from './schema.ts';

/** At most this many knocks start per drawn frame: the loudest contacts the frame presents. */
export const VOICES_PER_FRAME = 4;
/** At most this many knocks sound at once (a heap landing would otherwise start hundreds a second). */
export const MAX_VOICES = 24;
/** Seconds a knock lasts. */
const DECAY = 0.18;

export interface ImpactSounds {
  /** Picks this frame's loudest contact starts and plays them. Call it once per drawn frame, with its events. */
  present(events: FrameEvents): void;
  /** Contact starts presented so far, and knocks chosen (played, or chosen while the sound was off). */
  readonly contacts: number;
  readonly chosen: number;
  /** 'waiting' for the page's first gesture (no AudioContext may play before), 'on', or 'off' (`toggle()`). */
  readonly sound: 'waiting' | 'on' | 'off';
  /** Turns the sound off or on again (the M key). */
  toggle(): void;
}

export function createImpactSounds(target: EventTarget = window): ImpactSounds {
  let context: AudioContext | null = null;
  let noise: AudioBuffer | null = null;
  let muted = false;
  let sounding = 0;
  let contacts = 0;
  let chosen = 0;
  // this frame's loudest starts, largest first: their impulses and whether they hit the arena (floor or walls)
  const impulse = new Float64Array(VOICES_PER_FRAME);
  const arena = new Uint8Array(VOICES_PER_FRAME);
  let kept = 0;

  const unlock = (): void => {
    if (context === null) {
      context = new AudioContext();
      // 0.25 s of white noise, shared by every knock
      noise = context.createBuffer(1, Math.ceil(context.sampleRate / 4), context.sampleRate);
      const samples = noise.getChannelData(0);
      for (let i = 0; i < samples.length; i++) samples[i] = Math.random() * 2 - 1;
    }
    if (context.state === 'suspended') void context.resume();
  };
  target.addEventListener('pointerdown', unlock, { once: true });
  target.addEventListener('keydown', unlock, { once: true });

  /** One knock, now: loudness from the impulse (N·s; a 1 kg box landing from 1 m is about 4.4). */
  const knock = (ctx: AudioContext, j: number, onArena: boolean): void => {
    const strength = Math.min(1, Math.log1p(j) / Math.log1p(20));
    const now = ctx.currentTime;
    const out = ctx.createGain();
    out.gain.setValueAtTime(0.05 + 0.35 * strength, now);
    out.gain.exponentialRampToValueAtTime(0.001, now + DECAY);
    out.connect(ctx.destination);
    // the click: noise through a band-pass, higher for a body on a body than on the floor
    const burst = ctx.createBufferSource();
    burst.buffer = noise;
    const band = ctx.createBiquadFilter();
    band.type = 'bandpass';
    band.frequency.value = (onArena ? 700 : 1500) + 1500 * strength + 300 * Math.random();
    band.Q.value = 4;
    burst.connect(band).connect(out);
    // the body: a sine that drops in pitch
    const tone = ctx.createOscillator();
    tone.frequency.setValueAtTime(onArena ? 140 : 320, now);
    tone.frequency.exponentialRampToValueAtTime(onArena ? 60 : 160, now + DECAY);
    const toneGain = ctx.createGain();
    toneGain.gain.value = 0.6;
    tone.connect(toneGain).connect(out);
    burst.start(now);
    tone.start(now);
    burst.stop(now + DECAY);
    tone.stop(now + DECAY);
    sounding++;
    tone.onended = () => {
      sounding--;
      out.disconnect();
    };
  };

  return {
    present(events) {
      kept = 0;
      for (let i = 0; i < events.length; i++) {
        if (events.code(i) !== EVENT.impact) continue;
        contacts++;
        const j = events.payload(i, 2);
        // insert into the kept few, largest first (when full, the smallest is dropped for a larger one)
        let at: number;
        if (kept < VOICES_PER_FRAME) at = kept++;
        else if (j > impulse[VOICES_PER_FRAME - 1]!) at = VOICES_PER_FRAME - 1;
        else continue;
        while (at > 0 && impulse[at - 1]! < j) {
          impulse[at] = impulse[at - 1]!;
          arena[at] = arena[at - 1]!;
          at--;
        }
        impulse[at] = j;
        // entities 0 .. ARENA_BODIES - 1 are the floor and walls (either side may be one)
        const a = events.payload(i, 0);
        const b = events.payload(i, 1);
        arena[at] = a < ARENA_BODIES || (b >= 0 && b < ARENA_BODIES) ? 1 : 0;
      }
      chosen += kept;
      const ctx = context;
      if (ctx === null || muted || ctx.state !== 'running') return;
      for (let k = 0; k < kept && sounding < MAX_VOICES; k++) knock(ctx, impulse[k]!, arena[k] === 1);
    },
    get contacts() {
      return contacts;
    },
    get chosen() {
      return chosen;
    },
    get sound() {
      if (context === null || context.state !== 'running') return 'waiting';
      return muted ? 'off' : 'on';
    },
    toggle() {
      muted = !muted;
    },
  };
}
