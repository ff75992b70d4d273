/**
 * The worker's half of the manual clock: a `WorkerHost` whose time is the clock's, whose sleeps last until the
 * page moves the time past them (or the doorbell rings), and which tells the page when the simulation has
 * settled (ARCHITECTURE.md, "The manual clock").
 *
 * One watcher waits on SEQ. On each new value it fires the timers the new time has reached, ends the sleeps
 * that are due (or whose doorbell rang), and, once every loop of the simulation is asleep again or has ended,
 * stores ACK = that SEQ. A loop that read the clock before the page last moved it does not sleep on that plan:
 * it plans again, so no tick due by the time the page acknowledges goes unrun.
 */
import type { SleepReport, WorkerHost } from '../../contracts/host.ts';
import type { ManualClockConfig } from '../../contracts/remote.ts';
import { BLOCKED, SLEPT_ASYNC } from '../sleep-report.ts';
import { CLOCK, clockWords, readClockTime } from './words.ts';

interface Sleep {
  /** Due once the time reaches it; for a sleep of no length (a loop on the very instant its clock stands on), once the time moves past it. */
  readonly wakeAt: number;
  readonly strict: boolean;
  readonly doorbell: Int32Array;
  readonly index: number;
  readonly value: number;
  readonly resolve: (report: SleepReport) => void;
}

interface Timer {
  readonly ms: number;
  next: number;
  readonly fn: () => void;
}

/** The host the loop runs on when the page attached with a manual clock; `inner` keeps the yield. */
export function connectManualClock(config: ManualClockConfig, inner: WorkerHost): WorkerHost {
  const i32 = clockWords(config.buffer);
  /** The SEQ the watcher has processed: everything due by its time has been woken or fired. */
  let seen = Atomics.load(i32, CLOCK.SEQ);
  /** The SEQ in force when the loop last read the clock: a sleep planned before a later move is not slept. */
  let readAt = seen;
  let loops = 0;
  const sleeps = new Set<Sleep>();
  const timers = new Set<Timer>();
  const now = (): number => {
    readAt = Atomics.load(i32, CLOCK.SEQ);
    return readClockTime(i32);
  };
  /** Settled at `seen` when no loop is awake: tell the page. */
  const acknowledge = (): void => {
    if (sleeps.size < loops) return;
    Atomics.store(i32, CLOCK.ACK, seen);
    Atomics.notify(i32, CLOCK.ACK);
  };
  const wakeDue = (time: number): void => {
    for (const sleep of sleeps) {
      if ((sleep.strict ? time > sleep.wakeAt : time >= sleep.wakeAt) || Atomics.load(sleep.doorbell, sleep.index) !== sleep.value) {
        sleeps.delete(sleep);
        sleep.resolve(SLEPT_ASYNC);
      }
    }
  };
  const watch = async (): Promise<void> => {
    for (;;) {
      const wait = Atomics.waitAsync(i32, CLOCK.SEQ, seen);
      if (wait.async) await wait.value;
      seen = Atomics.load(i32, CLOCK.SEQ);
      const time = readClockTime(i32);
      for (const timer of timers) {
        if (time < timer.next) continue;
        timer.next = time + timer.ms;
        timer.fn();
      }
      wakeDue(time);
      acknowledge();
    }
  };
  void watch();
  Atomics.store(i32, CLOCK.ATTACHED, 1);
  acknowledge();
  return {
    clock: () => now,
    sleep(doorbell, index, value, ms) {
      // rung, or planned on a time the page has moved since: plan again at once
      if (Atomics.load(doorbell, index) !== value || Atomics.load(i32, CLOCK.SEQ) !== readAt) return Promise.resolve(BLOCKED);
      const strict = !(ms > 0);
      const wakeAt = readClockTime(i32) + (strict ? 0 : ms);
      return new Promise<SleepReport>((resolve) => {
        sleeps.add({ wakeAt, strict, doorbell, index, value, resolve });
        acknowledge();
      });
    },
    yieldToEvents: () => inner.yieldToEvents(),
    every(ms, fn) {
      const timer: Timer = { ms, next: readClockTime(i32) + ms, fn };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    wake() {
      for (const sleep of sleeps) sleep.resolve(SLEPT_ASYNC);
      sleeps.clear();
    },
    loopStarted() {
      loops++;
    },
    loopEnded() {
      loops--;
      acknowledge();
    },
  };
}
