/**
 * The r3f-port suite's design `floor`: the same `<instancedMesh>` of boxes, standing still where the heap
 * starts, no physics: what r3f, three.js and the browser cost a frame to draw the scene, under every design.
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Euler, Matrix4, Quaternion, Vector3, type InstancedMesh } from 'three';
import { heap } from '../shared/heap.ts';
import { BOX_COLOR, BOX_ROUGHNESS, BOX_SIZE, FloorMesh, type HeapProbe } from './stage.tsx';

export function FloorHeap({ probe }: { probe: HeapProbe }): ReactNode {
  const { count } = probe;
  const ref = useRef<InstancedMesh>(null);
  useLayoutEffect(() => {
    const mesh = ref.current!;
    const { positions, rotations } = heap(count);
    const matrix = new Matrix4();
    const at = new Vector3();
    const turn = new Quaternion();
    const one = new Vector3(1, 1, 1);
    for (let i = 0; i < count; i++) {
      turn.setFromEuler(new Euler(rotations[3 * i]!, rotations[3 * i + 1]!, rotations[3 * i + 2]!));
      mesh.setMatrixAt(i, matrix.compose(at.fromArray(positions, 3 * i), turn, one));
    }
    mesh.instanceMatrix.needsUpdate = true;
    probe.ready = true;
  }, [count, probe]);
  return (
    <>
      <FloorMesh />
      <instancedMesh ref={ref} args={[undefined, undefined, count]} frustumCulled={false}>
        <boxGeometry args={BOX_SIZE} />
        <meshStandardMaterial color={BOX_COLOR} roughness={BOX_ROUGHNESS} />
      </instancedMesh>
    </>
  );
}
