/**
 * `useEntity`: one Object3D (a mesh, a group, a camera rig) moved by one entity, on the CPU, through the runtime's
 * own frame: every interpolation option applies (render delay, extrapolation, snapping).
 */
import { useFrame } from '@react-three/fiber';
import { bindObjects, type TransformFields } from '@steadyframe/three';
import { useRef, type RefObject } from 'react';
import type { Schema } from 'steadyframe';
import type { Object3D } from 'three';
import { UPDATE_PRIORITY, useSteadyframeContext } from './provider.tsx';

/**
 * Returns a ref to put on an r3f object: each drawn frame sets its position, quaternion (and scale, if bound)
 * from entity `entity` at the frame's time, and hides it while that entity is not live. The frame is sampled
 * once per animation frame and shared by every `useEntity` below the same provider.
 */
export function useEntity<T extends Object3D = Object3D, S extends Schema = Schema>(entity: number, fields: TransformFields<S>): RefObject<T | null> {
  const { runtime, paced, frame } = useSteadyframeContext<S>();
  const ref = useRef<T>(null);
  const bound = useRef<{ object: T; entity: number; key: string; update: (f: ReturnType<typeof frame>) => void } | null>(null);
  const key = `${fields.position}|${fields.rotation ?? ''}|${fields.scale ?? ''}`;
  useFrame(() => {
    const object = ref.current;
    if (object === null || !paced()) return;
    let b = bound.current;
    if (b === null || b.object !== object || b.entity !== entity || b.key !== key) {
      b = bound.current = { object, entity, key, update: bindObjects(runtime, [object], fields, [entity]).update };
    }
    b.update(frame());
  }, UPDATE_PRIORITY);
  return ref;
}
