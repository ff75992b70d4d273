/**
 * The maggots' simulation: the example's per-frame update, moved into fixed ticks. The example adds per frame
 * (at 60 frames a second) `turningSpeed * 0.01` to the direction, `speed * scale.y` px along it and 0.1 to the
 * wobble's phase; a tick of `dt` seconds adds `dt * 60` times as much (the phase: 6 per simulated second). A
 * maggot that leaves the bounds wraps round to the other side: a teleport, so `world.snap(i)` (drawn there at
 * once instead of streaking across the screen).
 */
import { exposeSimulation } from 'steadyframe/worker';
import { MAGGOT, maggotSchema, type MaggotSetup } from './schema.ts';

/** Set by init from the set-up data, the same again on restart: nothing a restart would need to put back. */
let bounds = { x: 0, y: 0, width: 0, height: 0 };

exposeSimulation({
  schema: maggotSchema,
  // simulated but not drawn: the example's own per-maggot properties
  privateFields: { direction: { width: 1 }, turningSpeed: { width: 1 }, speed: { width: 1 }, offset: { width: 1 } },
  tickRate: 30,
  init(world, setup: MaggotSetup) {
    world.count = setup.count;
    const pad = MAGGOT.boundsPadding;
    bounds = { x: -pad, y: -pad, width: setup.width + 2 * pad, height: setup.height + 2 * pad };
    const { position, angle, scale } = world.fields;
    const { direction, turningSpeed, speed, offset } = world.private;
    for (let i = 0; i < world.count; i++) {
      const s = 0.8 + Math.random() * 0.3; // different maggots, different sizes
      scale[2 * i] = s;
      scale[2 * i + 1] = s;
      position[2 * i] = Math.random() * setup.width;
      position[2 * i + 1] = Math.random() * setup.height;
      direction[i] = Math.random() * Math.PI * 2;
      turningSpeed[i] = Math.random() - 0.8;
      speed[i] = (2 + Math.random() * 2) * 0.2;
      offset[i] = Math.random() * 100;
      angle[i] = -direction[i]! + Math.PI;
    }
  },
  step(world, tick) {
    const frames = tick.dt * MAGGOT.frameRate; // example frames in this tick
    // the example's wobble phase (`tick`, 0.1 a frame), from the simulated time rather than a variable of this
    // module, which restart('last') would not put back
    const phase = 0.1 * MAGGOT.frameRate * tick.time;
    const { position, angle, scale } = world.fields;
    const { direction, turningSpeed, speed, offset } = world.private;
    const { x: left, y: top, width, height } = bounds;
    for (let i = 0; i < world.count; i++) {
      const scaleY = 0.95 + Math.sin(phase + offset[i]!) * 0.05;
      scale[2 * i + 1] = scaleY;
      const d = direction[i]! + turningSpeed[i]! * 0.01 * frames;
      direction[i] = d;
      let x = position[2 * i]! + Math.sin(d) * speed[i]! * scaleY * frames;
      let y = position[2 * i + 1]! + Math.cos(d) * speed[i]! * scaleY * frames;
      angle[i] = -d + Math.PI;
      let wrapped = false;
      if (x < left) (x += width), (wrapped = true);
      else if (x > left + width) (x -= width), (wrapped = true);
      if (y < top) (y += height), (wrapped = true);
      else if (y > top + height) (y -= height), (wrapped = true);
      position[2 * i] = x;
      position[2 * i + 1] = y;
      if (wrapped) world.snap(i);
    }
  },
});
