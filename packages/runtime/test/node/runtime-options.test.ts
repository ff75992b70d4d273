/**
 * createRuntime's and the worker's option checks (issue #17 items 1, 2, 5), in Node: a stand-in Worker that
 * takes messages and never answers, which is what a worker module that never calls exposeSimulation does.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime, defineSchema } from 'steadyframe';
import { Simulation } from 'steadyframe/worker';

const schema = defineSchema({ x: { width: 1, kind: 'linear' } });

/** A Worker that loads and never answers (no exposeSimulation). */
function silentWorker(): Worker {
  return { postMessage() {}, addEventListener() {}, removeEventListener() {}, terminate() {} } as unknown as Worker;
}

describe('createRuntime option checks', () => {
  it('rejects a worker that never attaches after attachTimeout, naming the likely cause', async () => {
    await expect(createRuntime({ worker: silentWorker(), schema, capacity: 2, attachTimeout: 30 })).rejects.toThrow(
      /did not attach within 30 ms.*exposeSimulation/,
    );
  });

  it('validates attachTimeout', async () => {
    for (const bad of [0, -1, Number.NaN, '100']) {
      await expect(createRuntime({ worker: silentWorker(), schema, capacity: 2, attachTimeout: bad as number })).rejects.toThrow(/attachTimeout must be/);
    }
  });

  // issue #17 item 2: -5 and 0 were accepted (the watchdog then flapped every frame), NaN silently turned it off
  it('validates heartbeatTimeout: a number of ms above 0, or false / Infinity to turn the watchdog off', async () => {
    for (const [bad, named] of [
      [-5, '-5'],
      [0, '0'],
      [Number.NaN, 'NaN'],
      ['2000', "the string '2000'"],
      [true, 'the boolean true'],
    ] as const) {
      await expect(createRuntime({ worker: silentWorker(), schema, capacity: 2, heartbeatTimeout: bad as number, attachTimeout: 30 })).rejects.toThrow(
        `heartbeatTimeout must be a number of ms above 0 (default 2000), or false (or Infinity) to turn the watchdog off; got ${named}`,
      );
    }
    // accepted: set-up goes on to the attach (which this worker never answers)
    for (const good of [1, 2000, Number.POSITIVE_INFINITY, false] as const) {
      await expect(createRuntime({ worker: silentWorker(), schema, capacity: 2, heartbeatTimeout: good, attachTimeout: 30 })).rejects.toThrow(/did not attach/);
    }
  });

  // issue #17 item 5: "got 60" for the string '60'
  it('names the type of a wrong value', async () => {
    await expect(createRuntime({ worker: silentWorker(), schema, capacity: 2, maxSpins: '60' as unknown as number })).rejects.toThrow(
      "maxSpins must be a finite whole number of at least 1; got the string '60'",
    );
    await expect(createRuntime({ worker: silentWorker(), schema, capacity: 2, transport: 60 as unknown as 'auto' })).rejects.toThrow(/got 60$/);
    await expect(createRuntime({ worker: {} as Worker, schema, capacity: 2 })).rejects.toThrow(/options.worker must be a Worker.*got an object/);
  });
});

describe('the worker option checks', () => {
  const definition = { schema, tickRate: 60, step() {} };
  it('names the type of a wrong value', () => {
    expect(() => new Simulation({ ...definition, tickRate: '60' as unknown as number })).toThrow(/tick rate must be .*; got the string '60'/);
    expect(() => new Simulation({ ...definition, maxLeadTicks: '2' as unknown as number })).toThrow("maxLeadTicks must be a finite number of at least 0; got the string '2'");
    expect(() => new Simulation({ ...definition, maxCatchUpSteps: 2.5 })).toThrow('maxCatchUpSteps must be a finite whole number of at least 1; got 2.5');
    const sim = new Simulation(definition);
    expect(() => sim.setTimeScale('2' as unknown as number)).toThrow(/time scale must be .*; got the string '2'/);
  });
});
