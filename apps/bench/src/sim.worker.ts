/**
 * The steadyframe side of every suite: a simulation served with `exposeSimulation`. The page posts one
 * SimConfig first (which world, how many entities, the tick rate, an injected stall); comlink takes over after.
 */
import { exposeSimulation, type TickInfo } from 'steadyframe/worker';
import { BenchWorld, busyWait, churnCount, motionAt, motionSchema, pageClock, schema2d, schema3d, sideViews, stamp, type SideViews, type SimConfig } from './shared/sims.ts';

function configure(config: SimConfig): void {
  const now = pageClock(config.anchor);
  const side: SideViews | null = config.side === undefined ? null : sideViews(config.side);
  const stallEvery = config.stallEvery ?? 0;
  const stallMs = config.stallMs ?? 0;
  const emit = config.emit ?? 0;
  // Around each step: the start stamp first thing, then the injected stall; the end stamp after the work. No
  // closure per step: an allocation there could trigger a GC between the wake and the stamp, which the bare
  // pacers (pacer.worker.ts) do not pay either.
  const begin = (tick: TickInfo): number => {
    const start = now();
    if (stallEvery > 0 && tick.tick % stallEvery === 0) busyWait(stallMs);
    return start;
  };
  const end = (tick: TickInfo, start: number): void => {
    if (side !== null) stamp(side, tick.tick, start, now(), tick.previousAt);
  };
  if (config.kind === 'motion') {
    const out = new Float64Array(4);
    const place = (position: Float32Array, velocity: Float32Array, count: number, s: number) => {
      for (let i = 0; i < count; i++) {
        motionAt(i, s, config.tickRate, out);
        position[2 * i] = out[0]!;
        position[2 * i + 1] = out[1]!;
        velocity[2 * i] = out[2]!;
        velocity[2 * i + 1] = out[3]!;
      }
    };
    exposeSimulation({
      schema: motionSchema,
      tickRate: config.tickRate,
      init(world) {
        world.count = config.count;
        place(world.fields.position, world.fields.velocity, world.count, 0);
      },
      step(world, tick) {
        const start = begin(tick);
        place(world.fields.position, world.fields.velocity, world.count, tick.time);
        end(tick, start);
      },
    });
    return;
  }
  const bench = new BenchWorld(config.kind, config.count);
  if (config.kind === '2d') {
    exposeSimulation({
      schema: schema2d,
      tickRate: config.tickRate,
      init(world) {
        world.count = config.count;
        bench.init(world.fields.position, world.fields.angle, world.count);
      },
      step(world, tick) {
        const start = begin(tick);
        // entities past the new count despawn; those back in it spawn where they were (and snap: they are new)
        if (config.churn !== undefined) world.count = churnCount(config.count, config.churn, tick.tick);
        bench.step(world.fields.position, world.fields.angle, world.count, tick.dt);
        end(tick, start);
      },
    });
    return;
  }
  exposeSimulation({
    schema: schema3d,
    tickRate: config.tickRate,
    init(world) {
      world.count = config.count;
      bench.init(world.fields.position, world.fields.rotation, world.count);
    },
    step(world, tick) {
      const start = begin(tick);
      bench.step(world.fields.position, world.fields.rotation, world.count, tick.dt);
      for (let i = 0; i < emit; i++) tick.emit(1, i, tick.tick, 0.5, -0.5);
      end(tick, start);
    },
  });
}

// the first message is the config; comlink's listener, added by exposeSimulation, sees only the later ones
self.addEventListener('message', (event: MessageEvent<SimConfig>) => configure(event.data), { once: true });
