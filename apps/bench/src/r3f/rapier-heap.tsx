/**
 * The r3f-port suite's design `rapier`: the heap with @react-three/rapier 2.2.0 as its README and demo write it
 * (pmndrs/react-three-rapier at 2.2.0: readme.md "Instanced Meshes", demo/src/examples/cluster/ClusterExample.tsx,
 * demo/src/App.tsx). `<Physics>` inside `<Suspense>` with the demo's `interpolate` and `timeStep={1 / 60}` (both
 * also the defaults), everything else default (auto colliders "cuboid", bodies that may sleep, the step in a
 * useFrame); `<InstancedRigidBodies>` around one `<instancedMesh>` with a memoized instances array; the floor a
 * fixed RigidBody around its mesh, as the demo's Floor is. Rapier (its pinned compat build, 0.19.2) steps on the
 * main thread, and each instance's matrix is set from its body after every frame's steps (2.2.0 interpolates only
 * `mesh` bodies, not instances).
 */
import { InstancedRigidBodies, Physics, RigidBody, useAfterPhysicsStep, useRapier, type InstancedRigidBodyProps } from '@react-three/rapier';
import { Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { heap } from '../shared/heap.ts';
import { BOX_COLOR, BOX_ROUGHNESS, BOX_SIZE, FloorMesh, markPhase, type HeapProbe } from './stage.tsx';

function Boxes({ count }: { count: number }): ReactNode {
  const instances = useMemo(() => {
    const { positions, rotations } = heap(count);
    const list: InstancedRigidBodyProps[] = [];
    for (let i = 0; i < count; i++) {
      list.push({
        key: `box_${i}`,
        position: [positions[3 * i]!, positions[3 * i + 1]!, positions[3 * i + 2]!],
        rotation: [rotations[3 * i]!, rotations[3 * i + 1]!, rotations[3 * i + 2]!],
      });
    }
    return list;
  }, [count]);
  return (
    <InstancedRigidBodies instances={instances}>
      <instancedMesh args={[undefined, undefined, count]} count={count} frustumCulled={false}>
        <boxGeometry args={BOX_SIZE} />
        <meshStandardMaterial color={BOX_COLOR} roughness={BOX_ROUGHNESS} />
      </instancedMesh>
    </InstancedRigidBodies>
  );
}

/** The suite's probe: Rapier's steps, and the first step after which every instance's body is registered. */
function Probe({ probe }: { probe: HeapProbe }): null {
  const { rigidBodyStates } = useRapier();
  // <Physics> renders its children once Rapier is loaded and initialised (its Suspense resolved)
  useEffect(() => markPhase(probe, 'physics'), [probe]);
  useAfterPhysicsStep(() => {
    probe.updates++;
    // every box's RigidBody registered (and the floor's): this step's mesh update sets every instance's matrix
    if (!probe.ready && rigidBodyStates.size >= probe.count + 1) probe.ready = true;
  });
  return null;
}

export function RapierHeap({ probe }: { probe: HeapProbe }): ReactNode {
  return (
    <Suspense fallback={null}>
      <Physics interpolate timeStep={1 / 60}>
        <Boxes count={probe.count} />
        <RigidBody type="fixed" colliders="cuboid">
          <FloorMesh />
        </RigidBody>
        <Probe probe={probe} />
      </Physics>
    </Suspense>
  );
}
