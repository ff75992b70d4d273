/**
 * The scene: the worker's bodies (./sim.worker.ts, Rapier 2D at 60 Hz) drawn by Phaser from a Group used as a
 * pool (`bindGroup`: member i at entity i's pose, blended to each refresh's time, paced by `SteadyframePlugin`
 * from Phaser's loop). Each member's picture and size come from the `look` and `size` fields, set where they
 * changed: a swap-remove moves another body into a member's index, and the member takes its look. Each impact
 * (a contact event, presented with the frame that shows it) puffs a ring where it happened.
 */
import { Scene, type GameObjects, type Input } from 'phaser';
import { bindGroup, FRAME_EVENT, SteadyframePlugin, type GameLoop } from '@steadyframe/phaser';
import { createRuntime, type GameEvent, type Runtime } from 'steadyframe';
import type { Commands, PlatformsState, Setup } from './sim.worker.ts';
import { makeTextures } from './textures.ts';
import { CAPACITY, EVENT, EVENT_CAPACITY, INPUT, schema, type PlatformsSchema } from './schema.ts';

/** What the running game shows of itself: for the page's tests. */
export interface PlatformsHooks {
  runtime: Runtime<PlatformsSchema, Commands> | null;
  loop: GameLoop | null;
  /** Frames drawn, and impacts presented with them. */
  frames: number;
  impacts: number;
  /** The worker's counts, polled a few times a second. */
  state: PlatformsState | null;
}

/** What the scene is started with. */
export interface PlatformsData {
  readonly bodies: number;
  readonly seed: number | undefined;
  readonly hooks: PlatformsHooks;
}

/** Rings that grow and fade where impacts happened: a fixed ring buffer, redrawn each frame. */
const PUFFS = 32;
const PUFF_MS = 300;

export class Platforms extends Scene {
  declare steadyframe: SteadyframePlugin;

  constructor() {
    super('platforms');
  }

  async create({ bodies, seed, hooks }: PlatformsData): Promise<void> {
    makeTextures(this);
    this.add.image(0, 0, 'sky').setOrigin(0);
    const hud = this.add.text(8, 8, '', { fontFamily: 'system-ui, sans-serif', fontSize: '15px', color: '#e8ecff', backgroundColor: '#0b0d17aa', padding: { x: 6, y: 4 } }).setDepth(2);
    const runtime = await this.steadyframe.create(() =>
      createRuntime<PlatformsSchema, Commands, Setup>({
        worker: new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'platforms' }),
        schema,
        capacity: CAPACITY,
        setup: { bodies },
        events: { capacity: EVENT_CAPACITY, payloadWidth: 4 },
        ...(seed === undefined ? {} : { seed }),
      }),
    );
    if (runtime === null) return; // the scene shut down meanwhile; the plugin disposed of it
    hooks.runtime = runtime;
    this.input.on('pointerdown', (pointer: Input.Pointer) => runtime.sendInput(INPUT.drop, pointer.worldX, pointer.worldY));
    this.input.keyboard?.on('keydown-R', () => runtime.sendInput(INPUT.reset));

    const group = this.add.group({ defaultKey: 'things', defaultFrame: 0 });
    const things = bindGroup(runtime, group, { position: 'position', angle: 'angle' });
    things.reserve(bodies + 8); // made now rather than on the first frame
    // what each member shows, by index: set only where the field changed (a member keeps its place)
    const look = new Float32Array(CAPACITY).fill(-1);
    const size = new Float32Array(2 * CAPACITY);
    const rings = this.add.graphics().setDepth(1);
    const puffs = new Float64Array(3 * PUFFS); // x, y, start time
    let nextPuff = 0;
    let now = 0;

    hooks.loop = this.steadyframe.attach(runtime, (frame, time) => {
      things.update(frame);
      const members = group.getChildren() as GameObjects.Image[];
      const fields = frame.fields;
      for (let i = 0; i < frame.count && i < members.length; i++) {
        const member = members[i]!;
        if (look[i] !== fields.look[i]) member.setFrame((look[i] = fields.look[i]!));
        const w = fields.size[2 * i]!;
        const h = fields.size[2 * i + 1]!;
        if (size[2 * i] !== w || size[2 * i + 1] !== h) {
          size[2 * i] = w;
          size[2 * i + 1] = h;
          member.setDisplaySize(w, h);
        }
      }
      now = time;
      rings.clear();
      for (let k = 0; k < PUFFS; k++) {
        const age = (now - puffs[3 * k + 2]!) / PUFF_MS;
        if (!(age >= 0 && age < 1)) continue;
        rings.lineStyle(2, 0xfff3b0, 1 - age).strokeCircle(puffs[3 * k]!, puffs[3 * k + 1]!, 6 + 18 * age);
      }
      hooks.frames++;
    });
    // after the draw of the frame that presents it: member i stands at entity i's drawn pose
    this.events.on(FRAME_EVENT, (event: GameEvent) => {
      if (event.code !== EVENT.impact) return;
      hooks.impacts++;
      const member = (group.getChildren() as GameObjects.Image[])[event.payload(0)];
      if (member === undefined) return;
      puffs[3 * nextPuff] = member.x;
      puffs[3 * nextPuff + 1] = member.y;
      puffs[3 * nextPuff + 2] = now;
      nextPuff = (nextPuff + 1) % PUFFS;
    });
    const poll = async (): Promise<void> => {
      const state = await runtime.commands.state();
      hooks.state = state;
      hud.setText(`${state.bodies} bodies (${state.sleeping} asleep) · ${state.fallen} fell off · Rapier 2D in a worker · ${Math.round(this.game.loop.actualFps)} fps · click to drop more, R to start over`);
    };
    this.time.addEvent({ delay: 250, loop: true, callback: () => void poll().catch((error: unknown) => console.error(error)) });
    await runtime.start();
  }
}
