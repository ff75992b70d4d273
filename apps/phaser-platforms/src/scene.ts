/**
 * The scene: the worker's bodies (./sim.worker.ts, Rapier 2D at 60 Hz, three tables) drawn by Phaser, a Group
 * per table used as a pool (`bindGroup` with a `table`: a member per entity, kept by handle, at its entity's
 * pose blended to each refresh's time, paced by `SteadyframePlugin` from Phaser's loop). Each group has its
 * table's picture; a member's size comes from the `size` field when it takes an entity. Each impact (a contact
 * event of a pair of tables, presented with the frame that shows it) puffs a ring where the knocking body is.
 */
import { Scene, type GameObjects, type Input } from 'phaser';
import { bindGroup, FRAME_EVENT, SteadyframePlugin, type GameLoop, type TableGroupBinding } from '@steadyframe/phaser';
import { createRuntime, type Frame, type GameEvent, type Runtime } from 'steadyframe';
import type { Commands, PlatformsState, Setup } from './sim.worker.ts';
import { makeTextures } from './textures.ts';
import { CAPACITY, EVENT_CAPACITY, IMPACT, INPUT, LOOK, schema, type PlatformsSchema } from './schema.ts';

type Things = TableGroupBinding<PlatformsSchema, GameObjects.Image>;
const TABLES = ['blocks', 'crates', 'balls'] as const;

/** What the running game shows of itself: for the page's tests. */
export interface PlatformsHooks {
  runtime: Runtime<PlatformsSchema, Commands> | null;
  loop: GameLoop | null;
  /** Each table's group binding (`get(handle)`: the member drawing that entity). */
  things: { readonly [N in (typeof TABLES)[number]]: Things } | null;
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

    // a group per table, each of its own picture: a member per entity, kept by handle
    const bind = (table: (typeof TABLES)[number], look: number): Things =>
      bindGroup(runtime, this.add.group({ defaultKey: 'things', defaultFrame: look }), { position: 'position', angle: 'angle' }, { table, make: () => this.add.image(0, 0, 'things', look) });
    const things = { blocks: bind('blocks', LOOK.block), crates: bind('crates', LOOK.crate), balls: bind('balls', LOOK.ball) };
    hooks.things = things;
    // made now rather than on the first frame
    things.blocks.reserve(8);
    things.crates.reserve(Math.ceil(bodies / 2) + 8);
    things.balls.reserve(Math.ceil(bodies / 2) + 8);
    /** Sizes each table's members: a member that took another entity (its `state`: that entity's handle + 1) takes its size. */
    const size = (frame: Frame<PlatformsSchema>, table: (typeof TABLES)[number]): void => {
      const shown = frame.tables[table];
      const sizes = shown.fields.size;
      for (let i = 0; i < shown.count; i++) {
        const handle = shown.handle(i);
        const member = things[table].get(handle);
        if (member === undefined || member.state === handle + 1) continue;
        member.state = handle + 1;
        member.setDisplaySize(sizes[2 * i]!, sizes[2 * i + 1]!);
      }
    };
    const rings = this.add.graphics().setDepth(1);
    const puffs = new Float64Array(3 * PUFFS); // x, y, start time
    let nextPuff = 0;
    let now = 0;

    hooks.loop = this.steadyframe.attach(runtime, (frame, time) => {
      for (const table of TABLES) {
        things[table].update(frame);
        size(frame, table);
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
    // after the draw of the frame that presents it: the knocking body's member (payload 3, its handle) stands
    // at its drawn pose; the pair's code says which table it is in
    this.events.on(FRAME_EVENT, (event: GameEvent) => {
      const code = event.code;
      if (code < IMPACT.crateOnBlock || code > IMPACT.ballOnBall) return;
      hooks.impacts++;
      const member = (code <= IMPACT.crateOnBall ? things.crates : things.balls).get(event.payload(3));
      if (member === undefined) return; // removed in the tick it knocked
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
