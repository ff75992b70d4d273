/**
 * A shot: a beam from the shooter's ship along its aim, judged against the world as the shooter saw it.
 *
 * The shooter's page drew every other ship and orb a playout delay behind the server (100 to 300 ms on a real
 * link), and its own ship ahead (predicted). So the beam starts where the shooter's ship is now (the server's own
 * ship is the one the page predicted) and meets the targets where they were at the input's made time, the render
 * time the page was showing: `tick.rewind(madeTime)` (lag compensation). An orb at 180 units a second is 36 units
 * on by the time a 200 ms-old picture reaches the server; judged against the present world, an aim true on the
 * screen would miss by three of its radii.
 *
 * ```text
 *  shooter (now) ●───────────────────────○ target where the page drew it (rewound)     ○ the target now
 *                 along: nearest hit within RANGE, off the beam by less than its radius
 * ```
 *
 * A hit scores (an orb ORB_POINTS, a ship SHIP_POINTS, in the shooter's slot's game field), places an orb
 * elsewhere, and knocks a ship along the beam: its page learns of that only from the server, and its prediction
 * is corrected (faded out, not jumped). On a predicting client this runs too, where `tick.rewind` answers the
 * predicted world as it stands and scores go nowhere drawn: the server decides hits.
 */
import { INPUT_MADE_TIME, type TickInfo, type World } from 'steadyframe/worker';
import { placeOrb } from './orbs.ts';
import { EVENT, MAX_PLAYERS, ORB_RADIUS, ORBS, SCORES, SHIP_RADIUS, SHIPS, type GameSchema } from './schema.ts';
import { slotOf } from './ships.ts';

type GameWorld = World<GameSchema>;

/** How far a beam reaches, units; ticks between a ship's shots (4 a second); the points for an orb and for a ship. */
export const RANGE = 700;
export const RELOAD_TICKS = 15;
export const ORB_POINTS = 1;
export const SHIP_POINTS = 3;
/** Units a second a hit adds to a ship's velocity along the beam. */
export const KNOCK = 250;

/**
 * Input `e` of `tick` (a shot by `player` along payload dx, dy): judged, scored and emitted as EVENT.SHOT; a ship
 * still reloading, an aim of no length, or a player with no ship fires nothing.
 */
export function shoot(world: GameWorld, tick: TickInfo<GameSchema>, e: number, player: number): void {
  const slot = slotOf(world, player);
  if (slot < 0) return;
  const f = world.fields;
  const me = SHIPS + slot;
  if (f.reload[me]! > 0) return;
  const ax = tick.input.payload(e, 2);
  const ay = tick.input.payload(e, 3);
  const length = Math.sqrt(ax * ax + ay * ay);
  if (!(length > 0 && Number.isFinite(length))) return;
  const dx = ax / length;
  const dy = ay / length;
  const ox = f.position[2 * me]!;
  const oy = f.position[2 * me + 1]!;
  f.reload[me] = RELOAD_TICKS;
  // the targets as the shooter's page drew them when it fired
  const seen = tick.rewind(tick.input.payload(e, INPUT_MADE_TIME));
  const p = seen.fields.position;
  let hit = -1;
  let nearest = RANGE;
  for (let t = 0; t < ORBS + MAX_PLAYERS; t++) {
    if (t === me || (t >= SHIPS && seen.fields.owner[t] === 0)) continue;
    const rx = p[2 * t]! - ox;
    const ry = p[2 * t + 1]! - oy;
    const along = rx * dx + ry * dy;
    const off = Math.abs(rx * dy - ry * dx);
    if (along > 0 && along < nearest && off < (t < ORBS ? ORB_RADIUS : SHIP_RADIUS)) {
      nearest = along;
      hit = t;
    }
  }
  if (hit >= SHIPS && f.owner[hit] === 0) {
    // its player left since it was drawn: nothing there to hit
    hit = -1;
    nearest = RANGE;
  }
  tick.emit(EVENT.SHOT, slot, ox + dx * nearest, oy + dy * nearest, hit);
  if (hit < 0) return;
  const score = SCORES[slot]!;
  if (hit < ORBS) {
    world.state[score] += ORB_POINTS;
    placeOrb(world, hit, () => tick.random());
    world.snap(hit);
  } else {
    world.state[score] += SHIP_POINTS;
    f.velocity[2 * hit] = f.velocity[2 * hit]! + dx * KNOCK;
    f.velocity[2 * hit + 1] = f.velocity[2 * hit + 1]! + dy * KNOCK;
  }
}
