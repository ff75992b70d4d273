/**
 * The render suite's scene: the motion bodies as squares on a 2D canvas, the same setup run in the render
 * worker (jank.render.ts) and on the page (`fallback`, `renderIn: 'main'`). It records every drawn frame with the
 * motion recorder; the suite asks for windows over a BroadcastChannel named after the run:
 * `{ op: 'calibrate' }` fixes simulated time against the shared clock at the next on-time frame,
 * `{ op: 'take', period }` answers `{ calibrated, window }` and starts a new window.
 */
import type { RendererSetup } from 'steadyframe';
import { Recorder, type MotionWindow } from './motion-recorder.ts';
import type { motionSchema } from './sims.ts';

export type JankSceneMessage = { readonly op: 'calibrate' } | { readonly op: 'take'; readonly period: number };
export interface JankSceneWindow {
  readonly calibrated: boolean;
  readonly window: MotionWindow;
}

export function jankScene(name: string, bodies: number, tickRate: number): RendererSetup<typeof motionSchema> {
  return ({ canvas, now }) => {
    const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
    const recorder = new Recorder(bodies, tickRate);
    /** Simulated seconds at shared-clock time t: s = s0 + (t - t0) / 1000, fixed once. */
    let s0 = Number.NaN;
    let t0 = Number.NaN;
    let calibrate = false;
    const channel = new BroadcastChannel(name);
    channel.onmessage = (event: MessageEvent<JankSceneMessage>) => {
      if (event.data.op === 'calibrate') calibrate = true;
      else channel.postMessage({ calibrated: !Number.isNaN(s0), window: recorder.take(event.data.period, true) } satisfies JankSceneWindow);
    };
    return (frame, time) => {
      if (!frame.fresh) return;
      g.fillStyle = '#000';
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.fillStyle = '#fff';
      const position = frame.fields.position;
      const scale = canvas.width / 80;
      for (let i = 0; i < frame.count; i++) g.fillRect(40 * scale + position[2 * i]! * scale * 0.1, 40 * scale + position[2 * i + 1]! * scale * 0.1, 2, 2);
      if (calibrate && !frame.late && frame.tick > 0) {
        s0 = frame.tick / tickRate;
        t0 = frame.currentTime;
        calibrate = false;
      }
      if (Number.isNaN(s0)) return;
      // intervals between the draws' own clock readings: headless Chromium's rAF timestamps advance one refresh
      // period per callback whatever happens, even across a busy loop that holds the callbacks back
      // (ARCHITECTURE.md, "Measurements behind the code"); judder against the frame's own time, as the motion suite
      recorder.record({ ts: now(), late: frame.late }, position, s0 + (time - t0) / 1000, () => `ticks ${frame.previousTick}..${frame.tick}, alpha ${frame.alpha.toFixed(3)}, late ${frame.late}`);
    };
  };
}
