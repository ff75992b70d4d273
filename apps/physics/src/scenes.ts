/**
 * The two scenes the page can run, and which one it picks. On a GPU, the pile: START_BODIES bodies fall and
 * settle. On a software rasteriser the browser draws a frame or two a second, and a pile of thousands settles
 * between them: the picture stands still. There the page runs the rain instead: fewer bodies, and a small heap
 * dropped every couple of seconds (a reset once the floor is full), so every frame shows bodies moving.
 *
 * ```text
 *  ?scene=pile | ?scene=rain     as asked
 *  neither                       rain on a software GL (gl-renderer.ts), pile on a GPU
 *  ?bodies=N                     the scene's start count, either way
 * ```
 */
import { START_BODIES } from './schema.ts';

/** The rain: a heap of `heap` bodies every `everyMs`; past `max` bodies, the next one is a reset to the start count. */
export interface Rain {
  readonly everyMs: number;
  readonly heap: number;
  readonly max: number;
}

export interface Scene {
  readonly name: 'pile' | 'rain';
  readonly bodies: number;
  readonly rain: Rain | null;
}

export const SCENES = {
  pile: { name: 'pile', bodies: START_BODIES, rain: null },
  rain: { name: 'rain', bodies: 300, rain: { everyMs: 2000, heap: 40, max: 900 } },
} as const satisfies Record<string, Scene>;

/** The scene `search` asks for (`?scene=`), else the one that moves visibly on this GL (`software`: its name, or null). */
export function chooseScene(search: URLSearchParams, software: string | null, capacity: number): Scene {
  const asked = search.get('scene');
  const base: Scene = asked === 'pile' || asked === 'rain' ? SCENES[asked] : software === null ? SCENES.pile : SCENES.rain;
  const bodies = Number(search.get('bodies') ?? base.bodies);
  return { ...base, bodies: Number.isFinite(bodies) ? Math.max(0, Math.min(capacity, bodies)) : base.bodies };
}
