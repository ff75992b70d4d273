/**
 * The r3f-port suite's design `ours`: the heap in Rapier (0.21) stepped at 60 Hz in a steadyframe worker through
 * @steadyframe/rapier (heap.worker.ts), drawn by `<InterpolatedInstances>` as apps/r3f-bodies does: the
 * provider paces r3f's frames, the instances take r3f's renderer (each tick's state uploaded straight from the
 * shared memory) and the vertex shader blends the two states. createRuntime with default options.
 */
import { InterpolatedInstances, Steadyframe, useSteadyframeContext } from '@steadyframe/react-three-fiber';
import type { InterpolatedInstancedMesh } from '@steadyframe/three';
import { useFrame } from '@react-three/fiber';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { createRuntime, schema3d } from 'steadyframe';
import { BoxGeometry, MeshStandardMaterial } from 'three';
import type { HeapSetup } from './heap.worker.ts';
import { BOX_COLOR, BOX_ROUGHNESS, BOX_SIZE, FloorMesh, markPhase, type HeapProbe } from './stage.tsx';

type Schema = typeof schema3d;

/** The suite's probe: ticks published, and whether the frame about to render draws every box. */
function Probe({ probe, instances }: { probe: HeapProbe; instances: { current: InterpolatedInstancedMesh<MeshStandardMaterial> | null } }): null {
  const { runtime, paced } = useSteadyframeContext<Schema>();
  // the provider renders its children once the runtime has started
  useEffect(() => {
    markPhase(probe, 'started');
    probe.catchUpMs = async () => (await runtime.stats()).frameClock.waitMs;
  }, [probe, runtime]);
  // at priority 0: after the instances' update (UPDATE_PRIORITY), before the provider's render (RENDER_PRIORITY)
  useFrame(() => {
    probe.updates = runtime.reader.publishCount();
    if (!probe.ready && paced() && instances.current?.count === probe.count) probe.ready = true;
  });
  return null;
}

function Boxes({ probe }: { probe: HeapProbe }): ReactNode {
  const geometry = useMemo(() => new BoxGeometry(...BOX_SIZE), []);
  const material = useMemo(() => new MeshStandardMaterial({ color: BOX_COLOR, roughness: BOX_ROUGHNESS }), []);
  const instances = useRef<InterpolatedInstancedMesh<MeshStandardMaterial> | null>(null);
  return (
    <>
      <InterpolatedInstances<Schema, MeshStandardMaterial> ref={instances} geometry={geometry} material={material} fields={{ position: 'position', rotation: 'rotation' }} />
      <Probe probe={probe} instances={instances} />
    </>
  );
}

export function OursHeap({ probe }: { probe: HeapProbe }): ReactNode {
  const { count } = probe;
  const make = async () => {
    const runtime = await createRuntime<Schema, Record<never, never>, HeapSetup>({
      worker: new Worker(new URL('./heap.worker.ts', import.meta.url), { type: 'module', name: 'heap' }),
      schema: schema3d,
      capacity: count,
      setup: { bodies: count },
    });
    // the worker started, Rapier initialised, the heap built (tick 0) and the shared buffer attached
    markPhase(probe, 'runtime');
    return runtime;
  };
  return (
    <>
      <FloorMesh />
      <Steadyframe create={make}>
        <Boxes probe={probe} />
      </Steadyframe>
    </>
  );
}
