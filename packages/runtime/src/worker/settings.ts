/**
 * A simulation definition's settings, checked once when the simulation is made: a wrong value throws naming the
 * option and what it takes. The rate and scale, which calls change later, are checked in definition.ts.
 */
import { checkNumber } from '../core/describe-value.ts';
import { BACKLOG_POLICIES, defaultMaxCatchUpSteps, type BacklogPolicy } from '../core/fixed-step.ts';
import { validateSchema, type Schema } from '../core/schema.ts';
import { checkTickRate, type SimulationDefinition } from './definition.ts';
import type { NonFinitePolicy } from './finite-check.ts';
import { checkRewind } from './rewind.ts';
import type { PrivateFieldSpec } from './world.ts';

export interface SimulationSettings {
  readonly tickRate: number;
  /** The catch-up cap the game set, or null: the default, which follows the tick length. */
  readonly maxCatchUpSteps: number | null;
  /** Most ticks ahead of the wall clock while a frame is expected (the game's, default 2). */
  readonly maxLeadTicks: number;
  /** Most ticks ahead of the wall clock on a frameless host with no frame expected (the game's, default 0): `leadTicks`. */
  readonly framelessLeadTicks: number;
  readonly backlog: BacklogPolicy;
  readonly maxBacklog: number;
  /** The game's spin budget, or undefined for the default (fixed-step.ts, `loopSpin`). */
  readonly spinMs: number | undefined;
  readonly pauseWhenHidden: boolean;
  readonly nonFinite: NonFinitePolicy;
  /** The rewind history's window, ms, or null: no history (worker/rewind-history.ts). */
  readonly rewindMs: number | null;
}

export function checkDefinition<S extends Schema>(definition: SimulationDefinition<S, unknown, PrivateFieldSpec>): SimulationSettings {
  validateSchema(definition.schema);
  if (typeof definition.step !== 'function') {
    throw new TypeError('steadyframe: a simulation needs a step(world, tick) function');
  }
  if (definition.init !== undefined && typeof definition.init !== 'function') {
    throw new TypeError('steadyframe: init must be a function (world, setup) => void');
  }
  for (const hook of ['save', 'load'] as const) {
    if (definition[hook] !== undefined && typeof definition[hook] !== 'function') throw new TypeError(`steadyframe: ${hook} must be a function`);
  }
  if ((definition.save === undefined) !== (definition.load === undefined)) {
    throw new TypeError('steadyframe: save and load go together: a simulation that saves its own state must load it back (or give neither)');
  }
  const tickRate = checkTickRate(definition.tickRate);
  const maxCatchUpSteps =
    definition.maxCatchUpSteps === undefined ? null : checkNumber('maxCatchUpSteps', definition.maxCatchUpSteps, 1, { integer: true });
  const backlog = definition.backlog ?? 'catch-up';
  if (!BACKLOG_POLICIES.includes(backlog)) {
    throw new RangeError(`steadyframe: backlog must be one of ${BACKLOG_POLICIES.join(', ')}; got ${JSON.stringify(backlog)}`);
  }
  const whenHidden = definition.whenHidden ?? 'pause';
  if (whenHidden !== 'pause' && whenHidden !== 'run') {
    throw new RangeError(`steadyframe: whenHidden must be 'pause' or 'run'; got ${JSON.stringify(whenHidden)}`);
  }
  const nonFinite = definition.nonFinite ?? 'count';
  if (nonFinite !== 'count' && nonFinite !== 'hold' && nonFinite !== 'off') {
    throw new RangeError(`steadyframe: nonFinite must be 'count', 'hold' or 'off'; got ${JSON.stringify(nonFinite)}`);
  }
  return {
    tickRate,
    maxCatchUpSteps,
    maxLeadTicks: checkNumber('maxLeadTicks', definition.maxLeadTicks ?? 2, 0),
    framelessLeadTicks: checkNumber('maxLeadTicks', definition.maxLeadTicks ?? 0, 0),
    backlog,
    maxBacklog: checkNumber('maxBacklog', definition.maxBacklog ?? 250, 0),
    spinMs: definition.spinMs === undefined ? undefined : checkNumber('spinMs', definition.spinMs, 0),
    pauseWhenHidden: whenHidden === 'pause',
    nonFinite,
    rewindMs: checkRewind(definition.rewind),
  };
}

/** The catch-up cap in effect for a tick length: the game's, or a quarter second's worth (at least 4). */
export function catchUpSteps(settings: SimulationSettings, tickLength: number): number {
  return settings.maxCatchUpSteps ?? defaultMaxCatchUpSteps(tickLength);
}

/**
 * The lead cap of one pass of the loop, in ticks. The lead is for frames: a frame needs the state past its time
 * made before it draws. So it is `maxLeadTicks` on a page (its next frame may come at any refresh) and wherever a
 * frame is expected; on a frameless host (Node: a frame comes only when the app calls `frame()` or `frameAt()`; a
 * server, none) with none expected, `framelessLeadTicks`: 0 unless the game set `maxLeadTicks`, so each tick
 * starts at its time. With the wall clock as the target (no frame), the loop makes the newest state reach it
 * (core/fixed-step.ts, `stepTarget`, `planSteps`): past it, a tick early, unless the cap is 0.
 *
 * ```text
 *  shared clock  ──|─────────|─────────|─────────|──▶   tick k stands for Tk
 *                  T1        T2        T3        T4
 *  lead ≥ 1        U2        U3        U4        U5     each tick made a tick before its time: an input at
 *                                                       T2 - 1 ms misses tick 2 (made at T1) and goes, late, to tick 3
 *  lead 0          U1        U2        U3        U4     each tick made at its time: that input is in tick 2
 * ```
 */
export function leadTicks(settings: SimulationSettings, frameless: boolean, frameExpected: boolean): number {
  return frameless && !frameExpected ? settings.framelessLeadTicks : settings.maxLeadTicks;
}
