/**
 * @steadyframe/phaser: draws a steadyframe runtime's entities with Phaser 4, smoothly: frames paced from
 * Phaser's own loop (`attachToGame`, or the scene plugin), and game objects moved by the interpolated state
 * (`bindSprites` for objects you make, `bindGroup` for a group used as a pool), or every entity drawn by one
 * Extern that blends them on the GPU (`createInterpolatedSprites`). Each takes an optional `table` (a schema of
 * `defineTables`) and then draws that table's entities alone; `bindSprites` and `bindGroup` keep an object per
 * entity by handle, which follows its entity through despawns.
 *
 * @module @steadyframe/phaser
 */
export { attachToGame, FRAME_EVENT } from './attach-to-game.ts';
export type { AttachToGameOptions, EventSink, GameLoop, GameTimeStep, LoopGame, TimedDrawable } from './attach-to-game.ts';
export { createInterpolatedSprites, MAX_FRAMES } from './interpolated-sprites.ts';
export type { ExternObject, InterpolatedSprites, InterpolatedSpritesOptions, InterpolatedSpritesStats, SpriteFields, SpriteFrame, SpritesRenderer, SpritesScene } from './interpolated-sprites.ts';
export { bindSprites } from './bind-sprites.ts';
export type { ObjectParent, SpritesBinding, TableSpritesBinding, TableSpritesOptions } from './bind-sprites.ts';
export { bindGroup } from './bind-group.ts';
export type { GroupBinding, GroupOptions, PoolGroup, PoolMember, TableGroupBinding } from './bind-group.ts';
export { SteadyframePlugin } from './plugin.ts';
export type { AttachOptions } from './plugin.ts';
export { resolveFields } from './fields.ts';
export type { FieldOf, PoseFields, TableSchema } from './fields.ts';
export type { PoseTarget } from './pose.ts';
