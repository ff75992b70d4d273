/**
 * The example's two scenes and the game that runs one of them (main.ts is the page; the benchmark's phaser-port
 * suite makes the same game):
 *
 * - `WorkerBalls`: the balls bounce in a worker at 60 Hz (./balls.worker.ts); Phaser draws them from a Group
 *   used as a pool (`bindGroup`), paced by `SteadyframePlugin` from Phaser's own loop, blended to each frame's
 *   time; or (`gpu`) one Extern draws them all, blended in its vertex shader (`createInterpolatedSprites`).
 * - `ArcadeBalls`: Phaser's "group world bounds event" example (phaserjs/examples, physics/arcade) as
 *   published, on Arcade physics on the main thread (no interpolation: Arcade steps at 60 Hz and draws the last
 *   step), scaled up.
 *
 * A click or tap throws in a burst of balls from that point, in both.
 */
import { Actions, AUTO, Game, Scale, Scene, type GameObjects, type Input, type Physics } from 'phaser';
import { bindGroup, createInterpolatedSprites, SteadyframePlugin, type GameLoop } from '@steadyframe/phaser';
import { createRuntime, type Runtime } from 'steadyframe';
import type { Commands, Setup } from './balls.worker.ts';
import { makeTextures } from './textures.ts';
import { BURST, CAPACITY, FRAMES, INPUT_BURST, schema, WORLD, type BallsSchema } from './schema.ts';

/** Arcade physics on the page, or the worker drawn through Phaser's Images (`bindGroup`) or on the GPU. */
export type BallsMode = 'steadyframe' | 'steadyframe-gpu' | 'arcade';

/** What the running game shows of itself: for the page's tests and the benchmark. */
export interface BallsHooks {
  readonly mode: BallsMode;
  runtime: Runtime<BallsSchema, Commands> | null;
  loop: GameLoop | null;
  game: Game | null;
  /** Balls drawn by the last frame. */
  balls: number;
  /** Main-thread ms of each of Phaser's loop steps (the whole rAF callback), newest last; the benchmark reads it. */
  readonly stepMs: number[];
}

/** What a scene is started with. */
interface BallsData {
  readonly balls: number;
  readonly hooks: BallsHooks;
  /** WorkerBalls: draw with one Extern on the GPU (`createInterpolatedSprites`) instead of a Group's Images. */
  readonly gpu?: boolean;
}

/** The count and frame rate, top left, four times a second (a Text re-renders its canvas on each change). */
function addHud(scene: Scene, label: string): (balls: number) => void {
  const text = scene.add.text(8, 8, '', { fontFamily: 'system-ui, sans-serif', fontSize: '16px', color: '#e8ecff', backgroundColor: '#0b0d17aa', padding: { x: 6, y: 4 } }).setDepth(1);
  let next = 0;
  return (balls) => {
    const now = scene.time.now;
    if (now < next) return;
    next = now + 250;
    text.setText(`${balls.toLocaleString('en')} balls · ${label} · ${Math.round(scene.game.loop.actualFps)} fps · click to throw more`);
  };
}

export class WorkerBalls extends Scene {
  declare steadyframe: SteadyframePlugin;

  constructor() {
    super('balls');
  }

  async create({ balls: startBalls, hooks, gpu = false }: BallsData): Promise<void> {
    makeTextures(this);
    this.add.image(0, 0, 'sky').setOrigin(0);
    const hud = addHud(this, gpu ? 'simulated in a worker, drawn on the GPU' : 'simulated in a worker');
    const runtime = await this.steadyframe.create(() =>
      createRuntime<BallsSchema, Commands, Setup>({
        worker: new Worker(new URL('./balls.worker.ts', import.meta.url), { type: 'module', name: 'balls' }),
        schema,
        capacity: CAPACITY,
        setup: { balls: startBalls },
      }),
    );
    if (runtime === null) return; // the scene shut down meanwhile; the plugin disposed of it
    this.input.on('pointerdown', (pointer: Input.Pointer) => runtime.sendInput(INPUT_BURST, pointer.worldX, pointer.worldY));
    hooks.runtime = runtime;
    if (gpu) {
      // every ball one point of one Extern, blended in the shader; its frame picked by the frame field
      const sprites = createInterpolatedSprites(this, runtime, { position: 'position', frame: 'frame' }, { texture: 'ball', frames: [0, 1, 2, 3, 4] });
      Object.defineProperty(hooks, 'balls', { get: () => sprites.count }); // known once a render has drawn them
      hooks.loop = this.steadyframe.attach(runtime, [sprites, { update: () => hud(sprites.count) }]);
      await runtime.start();
      return;
    }
    const group = this.add.group({ defaultKey: 'ball', defaultFrame: 0 });
    const balls = bindGroup(runtime, group, { position: 'position' });
    balls.reserve(startBalls); // made now rather than on the first frame
    // the frame each member shows, by index (a pool's members keep their places): set only where it changed
    const showing = new Float32Array(CAPACITY).fill(-1);
    hooks.loop = this.steadyframe.attach(runtime, (frame) => {
      balls.update(frame);
      const shown = frame.fields.frame;
      const members = group.getChildren() as GameObjects.Image[];
      for (let i = 0; i < frame.count && i < members.length; i++) {
        if (showing[i] === shown[i]) continue;
        showing[i] = shown[i]!;
        members[i]!.setFrame(shown[i]!);
      }
      hooks.balls = frame.count;
      hud(frame.count);
    });
    await runtime.start();
  }
}

export class ArcadeBalls extends Scene {
  constructor() {
    super('balls');
  }

  create({ balls: startBalls, hooks }: BallsData): void {
    makeTextures(this);
    this.add.image(0, 0, 'sky').setOrigin(0);
    const hud = addHud(this, 'Arcade physics on the main thread');
    // the example as published: one Arcade group, bounce 1, world bounds, (200, 150) px/s, a world-bounds event
    // that steps the ball's frame; as in the worker, each ball gets a random quarter turn and frame
    const group = this.physics.add.group({ key: 'ball', frameQuantity: startBalls, bounceX: 1, bounceY: 1, collideWorldBounds: true, velocityX: 200, velocityY: 150 });
    Actions.RandomRectangle(group.getChildren(), this.physics.world.bounds);
    const setUp = (ball: Physics.Arcade.Image, vx: number, vy: number, frame: number) => {
      ball.setFrame(frame % FRAMES);
      ball.setVelocity(vx, vy);
      (ball.body as Physics.Arcade.Body).onWorldBounds = true;
    };
    for (const ball of group.getChildren() as Physics.Arcade.Image[]) {
      const q = Math.floor(Math.random() * 4);
      setUp(ball, q & 1 ? -200 : 200, q & 2 ? -150 : 150, Math.floor(Math.random() * FRAMES));
    }
    this.physics.world.on('worldbounds', (body: Physics.Arcade.Body) => {
      const ball = body.gameObject as GameObjects.Image;
      ball.setFrame(((ball.frame.name as unknown as number) + 1) % FRAMES);
    });
    this.input.on('pointerdown', (pointer: Input.Pointer) => {
      for (let k = 0; k < BURST && group.getLength() < CAPACITY; k++) {
        const angle = Math.random() * 2 * Math.PI;
        const speed = 150 + Math.random() * 250;
        setUp(group.create(pointer.worldX, pointer.worldY) as Physics.Arcade.Image, Math.cos(angle) * speed, Math.sin(angle) * speed, k);
      }
    });
    this.events.on('update', () => {
      hooks.balls = group.getLength();
      hud(hooks.balls);
    });
  }
}

/** Options of `createBallsGame`. */
export interface BallsGameOptions {
  readonly mode: BallsMode;
  readonly balls: number;
  /** The element the canvas goes in. */
  readonly parent: HTMLElement | string;
  /** Fit the 800 × 600 world to the parent (the page), or draw it at its size (the benchmark). Default true. */
  readonly fit?: boolean;
}

/** The game running one of the scenes, and its hooks. */
export function createBallsGame(options: BallsGameOptions): BallsHooks {
  const hooks: BallsHooks = { mode: options.mode, runtime: null, loop: null, game: null, balls: 0, stepMs: [] };
  const game = new Game({
    type: AUTO,
    parent: options.parent,
    backgroundColor: '#0b0d17',
    // sprites are textured quads: multisampling would smooth nothing here, and in software GL it costs per pixel
    render: { antialiasGL: false },
    scale: options.fit === false ? { width: WORLD.width, height: WORLD.height } : { mode: Scale.FIT, autoCenter: Scale.CENTER_BOTH, width: WORLD.width, height: WORLD.height },
    physics: { default: 'arcade', arcade: { gravity: { x: 0, y: 200 }, debug: false } },
    plugins: { scene: [{ key: 'SteadyframePlugin', plugin: SteadyframePlugin, mapping: 'steadyframe' }] },
  });
  hooks.game = game;
  game.scene.add('balls', options.mode === 'arcade' ? ArcadeBalls : WorkerBalls, true, { balls: options.balls, hooks, gpu: options.mode === 'steadyframe-gpu' } satisfies BallsData);
  // the benchmark's measure: the main thread's time in each of Phaser's loop steps, whichever scene runs them
  // (Game.start hands the loop `loop.step` bound after 'ready')
  game.events.once('ready', () => {
    const loop = game.loop;
    const step = loop.step.bind(loop);
    loop.step = (time: number) => {
      const begin = performance.now();
      step(time);
      hooks.stepMs.push(performance.now() - begin);
      if (hooks.stepMs.length > 4000) hooks.stepMs.splice(0, 2000);
    };
  });
  return hooks;
}
