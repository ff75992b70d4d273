/**
 * The page: a Phaser game running the Platforms scene (./scene.ts), its bodies simulated by Rapier 2D in the
 * worker. `?bodies=N` starts with N bodies, `?seed=N` (a whole number up to 2^32 - 1) drops the same ones on
 * every load. The `window.platforms` hooks are for the e2e test.
 */
import { AUTO, Game, Scale } from 'phaser';
import { SteadyframePlugin } from '@steadyframe/phaser';
import { Platforms, type PlatformsData, type PlatformsHooks } from './scene.ts';
import { MAX_BODIES, START_BODIES, WORLD } from './schema.ts';

declare global {
  interface Window {
    platforms?: PlatformsHooks & { game: Game };
  }
}

const params = new URLSearchParams(location.search);
const asked = Number(params.get('bodies') ?? START_BODIES);
const seeded = params.get('seed');
const hooks: PlatformsHooks = { runtime: null, loop: null, things: null, frames: 0, impacts: 0, state: null };
const game = new Game({
  type: AUTO,
  parent: 'game',
  backgroundColor: '#10142a',
  canvasStyle: 'display: block',
  // sprites are textured quads: multisampling would smooth nothing here, and in software GL it costs per pixel
  render: { antialiasGL: false },
  scale: { mode: Scale.FIT, autoCenter: Scale.CENTER_BOTH, width: WORLD.width, height: WORLD.height },
  plugins: { scene: [{ key: 'SteadyframePlugin', plugin: SteadyframePlugin, mapping: 'steadyframe' }] },
});
game.scene.add('platforms', Platforms, true, {
  bodies: Number.isInteger(asked) ? Math.max(0, Math.min(MAX_BODIES, asked)) : START_BODIES,
  seed: seeded === null || !/^\d+$/.test(seeded) || Number(seeded) > 0xffff_ffff ? undefined : Number(seeded),
  hooks,
} satisfies PlatformsData);
window.platforms = Object.assign(hooks, { game });
