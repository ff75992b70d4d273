/**
 * Flashes where rocks burst: one InstancedMesh of additive rings, started by the burst events of the frame that
 * shows them and fading as they grow. A ring fades over FLASH_MS and at least FLASH_FRAMES drawn frames (so a
 * slow software renderer still shows it), and the oldest is reused when all MAX_FLASHES are busy. Allocates
 * nothing per frame.
 */
import { AdditiveBlending, Color, DynamicDrawUsage, InstancedMesh, Matrix4, MeshBasicMaterial, RingGeometry } from 'three';
import type { FrameEvents } from 'steadyframe';
import { EVENT, ROCK_RADIUS } from './schema.ts';

const MAX_FLASHES = 64;
const FLASH_MS = 260;
const FLASH_FRAMES = 4;
/** Each tier's (small, medium, big) colour at full strength. */
const TIER_COLOR = [new Color(0xffe9a8), new Color(0xffc06a), new Color(0xff8a3c)] as const;

export interface Flashes {
  readonly mesh: InstancedMesh;
  /** Starts a flash for every burst in `events` (at time `ts`, ms), fades the others; returns the flashes started. */
  update(ts: number, events: FrameEvents): number;
}

export function createFlashes(): Flashes {
  const material = new MeshBasicMaterial({ transparent: true, blending: AdditiveBlending, depthWrite: false });
  const mesh = new InstancedMesh(new RingGeometry(0.55, 1, 24), material, MAX_FLASHES);
  mesh.instanceMatrix.setUsage(DynamicDrawUsage);
  mesh.frustumCulled = false;
  mesh.setColorAt(0, new Color(0)); // the colour attribute from the start, so the material is built with it
  mesh.count = 0;
  mesh.position.z = 3; // over the rocks and the ship
  // per flash: x, y, radius, tier, start time, frames drawn; a ring buffer, the oldest replaced first
  const x = new Float64Array(MAX_FLASHES);
  const y = new Float64Array(MAX_FLASHES);
  const radius = new Float64Array(MAX_FLASHES);
  const tier = new Uint8Array(MAX_FLASHES);
  const start = new Float64Array(MAX_FLASHES).fill(-Infinity);
  const frames = new Uint32Array(MAX_FLASHES).fill(FLASH_FRAMES);
  let next = 0;
  const m = new Matrix4();
  const c = new Color();

  return {
    mesh,
    update(ts, events) {
      let started = 0;
      for (let i = 0; i < events.length; i++) {
        if (events.code(i) !== EVENT.burst) continue;
        const t = Math.min(2, Math.max(0, events.payload(i, 2) | 0));
        x[next] = events.payload(i, 0);
        y[next] = events.payload(i, 1);
        radius[next] = ROCK_RADIUS[t as 0 | 1 | 2];
        tier[next] = t;
        start[next] = ts;
        frames[next] = 0;
        next = (next + 1) % MAX_FLASHES;
        started++;
      }
      let n = 0;
      for (let f = 0; f < MAX_FLASHES; f++) {
        // done once both its time and its frames are up
        const age = Math.min((ts - start[f]!) / FLASH_MS, frames[f]! / FLASH_FRAMES);
        if (!(age < 1)) continue;
        frames[f]!++;
        const r = radius[f]! * (1.2 + 2.2 * age);
        m.makeScale(r, r, 1).setPosition(x[f]!, y[f]!, 0);
        mesh.setMatrixAt(n, m);
        mesh.setColorAt(n, c.copy(TIER_COLOR[tier[f] as 0 | 1 | 2]).multiplyScalar((1 - age) * (1 - age)));
        n++;
      }
      mesh.count = n;
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor !== null) mesh.instanceColor.needsUpdate = true;
      return started;
    },
  };
}
