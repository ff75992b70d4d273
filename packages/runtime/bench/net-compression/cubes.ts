/**
 * Glenn Fiedler's cube scene ("Introduction to Networked Physics", "Snapshot Compression"), rebuilt in Rapier's
 * deterministic 3D build: 901 cubes, a 30 × 30 grid of small cubes on a floor and one large player cube, driven
 * by a fixed script for a minute at 60 Hz. What his articles say, and what is guessed here (docs/net-compression.md
 * says the same):
 * - said: 901 cubes; the player moves by forces applied at its centre of mass, and friction with the ground makes
 *   it roll and tumble; it pushes the other cubes around, and cubes it pushes push others in turn; a "katamari"
 *   mode applies a force towards the player's centre to the cubes within some distance; positions are bounded
 *   in [−256, 255] m horizontally and [0, 32] m up, and sent at 1/512 m; orientations as smallest three, 9 bits.
 * - guessed: the sizes (small cubes 1 m, the player 2 m, the grid's centres 2 m apart), densities (all 1),
 *   friction, the forces, the radius of the katamari pull (5 m), and the script: the player sweeps the grid in
 *   lanes at up to 5 m/s, the katamari pull on for 12 s of the minute. A force at the centre alone makes
 *   Rapier's cube slide, not tumble, so a torque about the axis across its heading tips it forward too. His
 *   engine was ODE with the z axis up; Rapier's up is y.
 *
 * ```text
 *  0 s ── settle ── 1 s ── roll through the grid in lanes ── 35 s ── katamari (pull within 5 m) ── 47 s ── roll ── 60 s
 *        lanes (seen from above, x right, z down): ──▶ z = −18, ◀── z = −6, ──▶ z = 6, ◀── z = 18, then the centre, again
 *        katamari: a loop inside the grid, (0, 0) ─ (16, 10) ─ (−16, 10) ─ (0, −16), gathering cubes as it goes
 * ```
 *
 * Entity 0 is the player; 1 to 900 the grid, row by row. A body asleep keeps its pose exactly (Rapier stops
 * integrating it), so a cube at rest is a cube unchanged on the wire.
 */
import RAPIER from '@dimforge/rapier3d-deterministic-compat';

export const CUBE_TICK_RATE = 60;
export const CUBE_SECONDS = 60;
export const GRID = 30;
export const CUBES = GRID * GRID + 1;
const SMALL_HALF = 0.5;
const PLAYER_HALF = 1;
const SPACING = 2;
const GRAVITY = 9.81;
/** The player's push at its centre, in its weights. */
const PUSH_WEIGHTS = 1;
/** The torque that tips it forward, in its weight times its half size (more than 1 tips it over an edge). */
const ROLL_WEIGHTS = 1.5;
/** m/s along its heading past which the push stops (and its rad/s past which the torque does, at its half size). */
const TOP_SPEED = 5;
/** Friction of the floor, the small cubes and the player (Rapier averages a pair's). */
const FLOOR_FRICTION = 0.8;
const CUBE_FRICTION = 0.6;
const PLAYER_FRICTION = 1.5;
/** The katamari's pull on a cube within KATAMARI_RADIUS m of the player's centre, in the cube's weights. */
const PULL_WEIGHTS = 2.5;
const KATAMARI_RADIUS = 5;
const WAYPOINT_REACHED = 2.5;
/** Where the player heads, in turn (x, z); the lanes cross the grid, whose centres span ±29 m. */
const WAYPOINTS: ReadonlyArray<readonly [number, number]> = [
  [34, -18],
  [34, -6],
  [-34, -6],
  [-34, 6],
  [34, 6],
  [34, 18],
  [-34, 18],
  [0, 0],
  [-34, -18],
];
/** Where it heads, in turn, while the katamari pull is on: a loop inside the grid, gathering cubes. */
const KATAMARI_WAYPOINTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [16, 10],
  [-16, 10],
  [0, -16],
];

/** What the script does at a tick: still, rolling, or rolling with the katamari pull on. */
export type CubePhase = 'settle' | 'roll' | 'katamari';

export function cubePhase(tick: number): CubePhase {
  const s = tick / CUBE_TICK_RATE;
  if (s < 1) return 'settle';
  if (s >= 35 && s < 47) return 'katamari';
  return 'roll';
}

export interface CubeScene {
  /** One 1/60 s step of the script and the physics. */
  step(tick: number): void;
  /** Every cube's position (3 floats) and rotation (x, y, z, w) into the fields' runs. */
  write(block: Float32Array, position: number, rotation: number): void;
  /** Cubes Rapier has asleep. */
  sleeping(): number;
  free(): void;
}

export async function createCubeScene(): Promise<CubeScene> {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -GRAVITY, z: 0 });
  world.timestep = 1 / CUBE_TICK_RATE;
  const floor = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -1, 0));
  world.createCollider(RAPIER.ColliderDesc.cuboid(256, 1, 256).setFriction(FLOOR_FRICTION), floor);
  const cube = (x: number, z: number, half: number, density: number, friction: number) => {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, half, z));
    world.createCollider(RAPIER.ColliderDesc.cuboid(half, half, half).setDensity(density).setFriction(friction).setRestitution(0.1), body);
    return body;
  };
  const [startX, startZ] = WAYPOINTS.at(-1)!;
  const bodies = [cube(startX, startZ, PLAYER_HALF, 1, PLAYER_FRICTION)];
  const offset = ((GRID - 1) * SPACING) / 2;
  for (let row = 0; row < GRID; row++) for (let col = 0; col < GRID; col++) bodies.push(cube(col * SPACING - offset, row * SPACING - offset, SMALL_HALF, 1, CUBE_FRICTION));
  const player = bodies[0]!;
  const pulled = new Set<number>();
  /** Waypoints reached on each route. */
  const legs = { roll: 0, katamari: 0 };

  return {
    step(tick) {
      const phase = cubePhase(tick);
      player.resetForces(false);
      player.resetTorques(false);
      for (const i of pulled) bodies[i]!.resetForces(false);
      pulled.clear();
      if (phase !== 'settle') {
        const at = player.translation();
        const route = phase === 'katamari' ? KATAMARI_WAYPOINTS : WAYPOINTS;
        const leg = phase === 'katamari' ? legs.katamari : legs.roll;
        let [wx, wz] = route[leg % route.length]!;
        if (Math.hypot(wx - at.x, wz - at.z) < WAYPOINT_REACHED) {
          if (phase === 'katamari') legs.katamari++;
          else legs.roll++;
          [wx, wz] = route[(leg + 1) % route.length]!;
        }
        const d = Math.hypot(wx - at.x, wz - at.z);
        const dx = (wx - at.x) / d;
        const dz = (wz - at.z) / d;
        // driven up to a top speed along the heading, and a spin about the axis across it (up × heading): the
        // top goes first, so the cube tumbles rather than slides
        const v = player.linvel();
        if (v.x * dx + v.z * dz < TOP_SPEED) {
          const push = PUSH_WEIGHTS * player.mass() * GRAVITY;
          player.addForce({ x: dx * push, y: 0, z: dz * push }, true);
        }
        const w = player.angvel();
        if (w.x * dz - w.z * dx < TOP_SPEED / PLAYER_HALF) {
          const roll = ROLL_WEIGHTS * player.mass() * GRAVITY * PLAYER_HALF;
          player.addTorque({ x: dz * roll, y: 0, z: -dx * roll }, true);
        }
        if (phase === 'katamari') {
          for (let i = 1; i < bodies.length; i++) {
            const body = bodies[i]!;
            const p = body.translation();
            const dx = at.x - p.x;
            const dy = at.y - p.y;
            const dz = at.z - p.z;
            const r = Math.hypot(dx, dy, dz);
            if (r > KATAMARI_RADIUS || r === 0) continue;
            const pull = (PULL_WEIGHTS * body.mass() * GRAVITY) / r;
            body.addForce({ x: dx * pull, y: dy * pull, z: dz * pull }, true);
            pulled.add(i);
          }
        }
      }
      world.step();
    },
    write(block, position, rotation) {
      for (let i = 0; i < bodies.length; i++) {
        const body = bodies[i]!;
        const p = body.translation();
        const q = body.rotation();
        block[position + 3 * i] = p.x;
        block[position + 3 * i + 1] = p.y;
        block[position + 3 * i + 2] = p.z;
        block[rotation + 4 * i] = q.x;
        block[rotation + 4 * i + 1] = q.y;
        block[rotation + 4 * i + 2] = q.z;
        block[rotation + 4 * i + 3] = q.w;
      }
    },
    sleeping() {
      return bodies.reduce((n, body) => n + (body.isSleeping() ? 1 : 0), 0);
    },
    free() {
      world.free();
    },
  };
}
