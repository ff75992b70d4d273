/**
 * The shots' sounds, synthesised with Web Audio: a falling zap for a beam, a rising chime for a hit. One
 * AudioContext, made and resumed at the first key or touch (browsers keep audio off until a gesture); before that
 * nothing plays, and `played` stays 0.
 */
export interface Sounds {
  /** A beam leaving a ship; `hit`: it struck something. */
  shot(hit: boolean): void;
  /** Sounds played so far. */
  readonly played: number;
}

export function createSounds(target: EventTarget): Sounds {
  let audio: AudioContext | null = null;
  let played = 0;
  const allow = (): void => {
    audio ??= new AudioContext();
    if (audio.state !== 'running') void audio.resume();
  };
  target.addEventListener('pointerdown', allow);
  target.addEventListener('keydown', allow);
  /** One tone from `from` Hz to `to` Hz over `ms`, under a short envelope. */
  const tone = (type: OscillatorType, from: number, to: number, ms: number, gain: number): void => {
    const t = audio!.currentTime;
    const envelope = audio!.createGain();
    envelope.gain.setValueAtTime(0.0001, t);
    envelope.gain.exponentialRampToValueAtTime(gain, t + 0.01);
    envelope.gain.exponentialRampToValueAtTime(0.0001, t + ms / 1000);
    envelope.connect(audio!.destination);
    const oscillator = audio!.createOscillator();
    oscillator.type = type;
    oscillator.frequency.setValueAtTime(from, t);
    oscillator.frequency.exponentialRampToValueAtTime(to, t + ms / 1000);
    oscillator.connect(envelope);
    oscillator.start(t);
    oscillator.stop(t + ms / 1000 + 0.01);
  };
  return {
    shot(hit) {
      if (audio === null || audio.state !== 'running') return;
      if (hit) tone('triangle', 988, 1319, 250, 0.2);
      else tone('sawtooth', 1400, 300, 120, 0.06);
      played++;
    },
    get played() {
      return played;
    },
  };
}
