/**
 * The duel's numbers, the same definitions for both stacks (scenes.ts records, truth.ts the server's side):
 *
 * - latency: from a key's press (its handler ran) to the vsync of the first frame whose own disc moved along the
 *   key (by more than 0.001 units, a hundredth of a tick's motion); in ms, in ticks and in frames after the press.
 * - corrections: in the collision act, each frame's own disc against the server's path at the moment the frame
 *   shows (truth.ts): the distance, its p50/p99/max; and the largest move of the drawn disc from one frame to the
 *   next (per vsync), beside the largest the server's disc made in a step (its motion and a push).
 * - shots: of the shots that hit on the shooter's screen (the ray within the target's radius in the frame it
 *   aimed at), the share the server judged hits; by how deep inside the edge they were; and of those that missed
 *   on screen, the share the server judged misses.
 */
import { TARGET_RADIUS, TICK_MS } from './game.ts';
import type { DuelRecord } from './scenes.ts';
import { FRAME_MS } from './scenes.ts';
import { distanceToPath, type Truth } from './truth.ts';

export const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

export interface Latency {
  readonly samples: number[];
  readonly frames: number[];
  /** Presses whose disc had not moved 400 ms on. */
  readonly missed: number;
}

export function latency(record: DuelRecord): Latency {
  const samples: number[] = [];
  const frames: number[] = [];
  let missed = 0;
  for (const press of record.presses) {
    const after = record.frames.filter((f) => f.vsync > press.time && f.vsync < press.time + 400);
    const k = after.findIndex((f) => (f.self[0] - press.rest[0]) * press.dir[0] + (f.self[1] - press.rest[1]) * press.dir[1] > 0.001);
    if (k < 0) {
      missed++;
      continue;
    }
    samples.push(after[k]!.vsync - press.time);
    frames.push(Math.round((after[k]!.vsync - press.time) / FRAME_MS + 0.5));
  }
  return { samples, frames, missed };
}

export interface Corrections {
  readonly frames: number;
  readonly errorP50: number;
  readonly errorP99: number;
  readonly errorMax: number;
  /** The largest move of the drawn own disc between two frames, per vsync between them. */
  readonly largestJump: number;
  /** The largest move of the server's disc in one step over the same act. */
  readonly serverLargestStep: number;
  readonly contactSteps: number;
  readonly collisions: number;
  /** The same over the frames from 100 ms before a contact to 500 ms after (the corrections the collisions made). */
  readonly nearFrames: number;
  readonly nearP99: number;
  readonly nearJump: number;
  /** The same distance over the presses act (the disc alone, nothing to correct): the measure's own floor. */
  readonly aloneP99: number;
}

export function corrections(record: DuelRecord, truth: Truth): Corrections {
  const error = (f: DuelRecord['frames'][number]) => distanceToPath(f.self[0], f.self[1], truth.window(f.at));
  const frames = record.frames.slice(record.collisionsFrom, record.collisionsTo);
  const errors = frames.map(error);
  const alone = record.frames.slice(0, record.collisionsFrom).map(error).filter(Number.isFinite);
  let largestJump = 0;
  let nearJump = 0;
  const near: number[] = [];
  for (let i = 0; i < frames.length; i++) {
    const isNear = truth.nearContact(frames[i]!.at);
    if (isNear && Number.isFinite(errors[i]!)) near.push(errors[i]!);
    if (i === 0) continue;
    const vsyncs = Math.max(1, Math.round((frames[i]!.vsync - frames[i - 1]!.vsync) / FRAME_MS));
    const jump = Math.hypot(frames[i]!.self[0] - frames[i - 1]!.self[0], frames[i]!.self[1] - frames[i - 1]!.self[1]) / vsyncs;
    largestJump = Math.max(largestJump, jump);
    if (isNear) nearJump = Math.max(nearJump, jump);
  }
  const ats = frames.map((f) => f.at);
  const finite = errors.filter(Number.isFinite);
  return {
    frames: finite.length,
    errorP50: percentile(finite, 0.5),
    errorP99: percentile(finite, 0.99),
    errorMax: Math.max(...finite),
    largestJump,
    serverLargestStep: truth.largestStep(Math.min(...ats), Math.max(...ats)),
    contactSteps: truth.contactSteps,
    collisions: truth.collisions,
    nearFrames: near.length,
    nearP99: percentile(near, 0.99),
    nearJump,
    aloneP99: percentile(alone, 0.99),
  };
}

export interface Verdict {
  readonly shot: number;
  readonly hit: boolean;
  /** The server's ray offset from the target it judged against (signed, as the screen's). */
  readonly offset?: number;
}

export interface Shots {
  /** Shots that hit on screen, those the server judged hits, and the same by depth inside the edge. */
  readonly screenHits: number;
  readonly agreed: number;
  readonly byDepth: ReadonlyArray<{ readonly label: string; readonly hits: number; readonly agreed: number }>;
  readonly screenMisses: number;
  readonly missesAgreed: number;
  /** Shots the server never judged. */
  readonly unjudged: number;
  /** Screen hits judged misses whose server target was more, and not more, than FAR from the screen's (across the ray). */
  readonly missedFar: number;
  readonly missedNear: number;
}

/** A frame and a little of the target's motion (0.1 a frame): a click comes up to a frame after the frame it aimed at. */
export const FAR = 0.12;

/** Depths inside the target's edge, in units: a frame of the target's motion is 0.1. */
const DEPTHS: ReadonlyArray<readonly [string, number, number]> = [
  ['≥ 0.1 inside the edge', 0.1, Number.POSITIVE_INFINITY],
  ['0.05–0.1 inside', 0.05, 0.1],
  ['< 0.05 inside', 0, 0.05],
];

export function shots(record: DuelRecord, verdicts: Verdict[]): Shots {
  const judged = new Map(verdicts.map((v) => [v.shot, v.hit]));
  const offsets = new Map(verdicts.map((v) => [v.shot, v.offset ?? Number.NaN]));
  let missedFar = 0;
  let missedNear = 0;
  const byDepth = DEPTHS.map(([label]) => ({ label, hits: 0, agreed: 0 }));
  let screenHits = 0;
  let agreed = 0;
  let screenMisses = 0;
  let missesAgreed = 0;
  let unjudged = 0;
  for (const s of record.shots) {
    const server = judged.get(s.shot);
    if (server === undefined) unjudged++;
    const depth = TARGET_RADIUS - Math.abs(s.screenOffset);
    if (depth > 0) {
      screenHits++;
      if (server === true) agreed++;
      const bucket = DEPTHS.findIndex(([, low, high]) => depth >= low && depth < high);
      byDepth[bucket]!.hits++;
      if (server === true) byDepth[bucket]!.agreed++;
      if (server === false) {
        if (Math.abs(offsets.get(s.shot)! - s.screenOffset) > FAR) missedFar++;
        else missedNear++;
      }
    } else {
      screenMisses++;
      if (server === false) missesAgreed++;
    }
  }
  return { screenHits, agreed, byDepth, screenMisses, missesAgreed, unjudged, missedFar, missedNear };
}

/** The goal for input to drawn: a tick and a frame. */
export const LATENCY_GOAL_MS = TICK_MS + FRAME_MS;
