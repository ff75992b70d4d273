/**
 * The r3f-port suite's design `cannon`: the heap with @react-three/cannon 6.6.0 as its cube-heap demo writes it
 * (pmndrs/use-cannon at @react-three/cannon@6.6.0: packages/react-three-cannon-examples/src/demos/demo-CubeHeap.tsx):
 * `useBox` on one `<instancedMesh>` (mass 1, a position and rotation per instance), `<Physics broadphase="SAP">`
 * as the demo has it. cannon-es steps in use-cannon's worker (inlined as a Blob URL); each frame a useFrame posts
 * `step` with the frame's delta and the two transferable buffers (when they are back), and the worker's reply
 * sets every instance's matrix in its message handler, outside the frame: ping-pong, no interpolation.
 *
 * Changed from the demo, each the least a user must do to get this scene: `size={count + 1}`, since the
 * provider's buffers hold 1,000 bodies by default and the bodies past them silently stand still; the floor a
 * static box of the other designs' size instead of the demo's infinite plane (the same scene everywhere); the
 * demo's random re-drop of one cube a frame left out (no other design has it).
 */
import { Physics, useBox } from '@react-three/cannon';
import { useEffect, useRef, type ReactNode } from 'react';
import type { InstancedMesh, Mesh } from 'three';
import { FLOOR_HALF, heap } from '../shared/heap.ts';
import { BOX_COLOR, BOX_ROUGHNESS, BOX_SIZE, FloorMesh, markPhase, type HeapProbe } from './stage.tsx';

function Boxes({ probe }: { probe: HeapProbe }): ReactNode {
  const { count } = probe;
  const start = useRef(heap(count)).current;
  const [ref, api] = useBox(
    (i) => ({
      args: BOX_SIZE,
      mass: 1,
      position: [start.positions[3 * i]!, start.positions[3 * i + 1]!, start.positions[3 * i + 2]!],
      rotation: [start.rotations[3 * i]!, start.rotations[3 * i + 1]!, start.rotations[3 * i + 2]!],
    }),
    useRef<InstancedMesh>(null),
  );
  // the suite's probe, through the public API: a subscription to the last box's position is answered inside the
  // worker's frame messages, so its callbacks count them; the first arrives in the message whose handler places
  // every instance from the physics (all bodies go to the worker in one addBodies)
  useEffect(
    () =>
      api.at(count - 1).position.subscribe(() => {
        probe.updates++;
        probe.ready = true;
        markPhase(probe, 'reply');
      }),
    [api, count, probe],
  );
  return (
    <instancedMesh ref={ref} args={[undefined, undefined, count]} frustumCulled={false}>
      <boxGeometry args={BOX_SIZE} />
      <meshStandardMaterial color={BOX_COLOR} roughness={BOX_ROUGHNESS} />
    </instancedMesh>
  );
}

function Floor(): ReactNode {
  const [ref] = useBox(() => ({ type: 'Static', args: [2 * FLOOR_HALF, 1, 2 * FLOOR_HALF], position: [0, -0.5, 0] }), useRef<Mesh>(null));
  return <FloorMesh ref={ref} />;
}

export function CannonHeap({ probe }: { probe: HeapProbe }): ReactNode {
  return (
    <Physics broadphase="SAP" size={probe.count + 1}>
      <Floor />
      <Boxes probe={probe} />
    </Physics>
  );
}
