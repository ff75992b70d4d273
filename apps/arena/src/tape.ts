/**
 * The tape deck under the HUD: record a game (`runtime.record()`, from wherever it stands: the game saves its own
 * state), save the recording as a `.sfr` file, load one, and watch it again (`runtime.play()`), every tick's state
 * checked against the recorded hash. After a playback the game waits on its last state; "live" starts a new one.
 *
 * ```text
 *  idle ── rec ──▶ recording ── stop ──▶ idle (a recording kept: save, watch)
 *  idle ── watch / load ──▶ playing ── its end ──▶ watched (paused) ── live ──▶ idle (restart('scratch'))
 * ```
 */
import type { ReplayReport, Runtime } from 'steadyframe';
import { TICK_RATE, type ArenaSchema } from './schema.ts';
import type { Commands } from './sim.worker.ts';

export interface TapeHooks {
  state: 'idle' | 'recording' | 'playing' | 'watched';
  /** The last recording made or loaded, and its size. */
  recording: Uint8Array | null;
  /** The last playback's report. */
  report: ReplayReport | null;
  error: string | null;
}

const button = (parent: HTMLElement, label: string, title: string): HTMLButtonElement => {
  const b = parent.appendChild(document.createElement('button'));
  b.type = 'button';
  b.textContent = label;
  b.title = title;
  return b;
};

export function createTape(root: HTMLElement, runtime: Runtime<ArenaSchema, Commands>): TapeHooks {
  const hooks: TapeHooks = { state: 'idle', recording: null, report: null, error: null };
  root.id = 'tape';
  const rec = button(root, '● rec', 'record the game from here on');
  const watch = button(root, '▶ watch', 'play the recording back: every tick made again and checked');
  const save = button(root, '⤓ save', 'save the recording as a .sfr file');
  const load = button(root, '⤒ load', 'load a .sfr recording and watch it');
  const file = root.appendChild(document.createElement('input'));
  file.type = 'file';
  file.accept = '.sfr';
  file.hidden = true;
  const status = root.appendChild(document.createElement('div'));
  status.className = 'status';
  let recordFrom = 0;

  const show = (): void => {
    rec.textContent = hooks.state === 'recording' ? '■ stop' : '● rec';
    rec.classList.toggle('on', hooks.state === 'recording');
    rec.disabled = hooks.state === 'playing' || hooks.state === 'watched';
    watch.textContent = hooks.state === 'playing' || hooks.state === 'watched' ? '↻ live' : '▶ watch';
    watch.disabled = hooks.state === 'recording' || (hooks.recording === null && hooks.state === 'idle');
    save.disabled = hooks.recording === null || hooks.state === 'recording';
    load.disabled = hooks.state === 'recording';
  };
  const fail = (error: unknown): void => {
    hooks.error = error instanceof Error ? error.message : String(error);
    status.textContent = hooks.error; // said on the deck: a file the player chose, not a bug of the page
    console.warn(error);
  };
  const play = async (recording: Uint8Array): Promise<void> => {
    const before = { state: hooks.state, recording: hooks.recording };
    hooks.recording = recording;
    hooks.state = 'playing';
    hooks.error = null;
    hooks.report = null;
    status.textContent = 'watching…';
    show();
    let report: ReplayReport;
    try {
      report = await runtime.play(recording); // a file that is no recording, or another game's, throws at once
    } catch (error) {
      // refused before anything changed: the deck as it was
      Object.assign(hooks, before);
      show();
      throw error;
    }
    hooks.report = report;
    if (hooks.state !== 'playing') return; // cut short by "live"
    hooks.state = 'watched';
    status.textContent = report.matched
      ? `watched ${report.ticks} ticks: every one as recorded ✓`
      : `diverged at tick ${report.firstDivergence?.tick ?? report.difference?.tick ?? '?'}${report.faults.unexpected === null ? '' : `: ${report.faults.unexpected}`}`;
    show();
  };

  rec.onclick = () => {
    const toggle = async (): Promise<void> => {
      if (hooks.state === 'recording') {
        hooks.recording = await runtime.stopRecording();
        hooks.state = 'idle';
        status.textContent = `recorded ${((runtime.sample(Number.POSITIVE_INFINITY).tick - recordFrom) / TICK_RATE).toFixed(1)} s, ${(hooks.recording.byteLength / 1024).toFixed(0)} KB`;
      } else {
        // a keyframe every 10 s: a diverging replay names the entity and field (each is the whole world, ~70 KB)
        await runtime.record({ keyframeEvery: 300 });
        recordFrom = runtime.sample(Number.POSITIVE_INFINITY).tick;
        hooks.state = 'recording';
        status.textContent = 'recording…';
      }
      show();
    };
    toggle().catch(fail);
  };
  watch.onclick = () => {
    if (hooks.state === 'playing' || hooks.state === 'watched') {
      hooks.state = 'idle';
      status.textContent = '';
      show();
      runtime.restart('scratch').catch(fail); // a new game (it also ends a playback under way)
    } else if (hooks.recording !== null) {
      play(hooks.recording).catch(fail);
    }
  };
  save.onclick = () => {
    if (hooks.recording === null) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([hooks.recording.slice()], { type: 'application/octet-stream' }));
    link.download = `arena-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.sfr`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  load.onclick = () => file.click();
  file.onchange = () => {
    const chosen = file.files?.[0];
    file.value = '';
    if (chosen === undefined) return;
    chosen
      .arrayBuffer()
      .then((bytes) => play(new Uint8Array(bytes))) // a refused file puts the last recording back
      .catch(fail);
  };
  show();
  return hooks;
}
