/**
 * What every design of the r3f-port suite shares: the canvas (640×480 CSS px, dpr 1, `frameloop="always"`, r3f's
 * renderer options but for `antialias: false`), the camera, the lights, the floor's mesh, and the box's size and
 * material. Each design puts its own heap (and its physics around the floor) inside `<Stage>`. No multisampling
 * and no shadows: headless Chromium draws WebGL in software (SwiftShader), where multisampling alone halved the
 * frame rate of every design (1k boxes standing still: 15 animation frames a second with it, 36 without), and a
 * slower frame makes @react-three/rapier run more steps in each one; the comparison is the main thread's.
 */
import { Canvas, type RootState } from '@react-three/fiber';
import type { ReactNode, Ref } from 'react';
import type { Mesh } from 'three';
import { BOX_HALF, FLOOR_HALF } from '../shared/heap.ts';

export const CANVAS_WIDTH = 640;
export const CANVAS_HEIGHT = 480;
/** A box's edge, as the JSX args of a boxGeometry. */
export const BOX_SIZE: [number, number, number] = [2 * BOX_HALF, 2 * BOX_HALF, 2 * BOX_HALF];
/** The boxes' material (apps/r3f-bodies' colour), a MeshStandardMaterial in every design. */
export const BOX_COLOR = '#f4a340';
export const BOX_ROUGHNESS = 0.6;

/**
 * What a design reports to the suite while it runs. The suite reads it after each animation frame (r3f's
 * after-effects): `ready` says that the frame just rendered had every box where the physics put it.
 */
export interface HeapProbe {
  /** Boxes in the scene. */
  readonly count: number;
  /**
   * Set by the design: rapier, after the first Rapier step with every instance's body registered (that step then
   * writes every instance's matrix); cannon, when the first frame message from its worker that places every body
   * arrives (the provider writes every instance's matrix from it in the same handler); ours, when the frame about
   * to be rendered has the instances' count = `count`; floor, once the still matrices are set.
   */
  ready: boolean;
  /**
   * Physics updates so far: rapier, Rapier steps on the page; cannon, frame messages from its worker (one
   * `world.step` call each, up to 10 substeps); ours, ticks the worker published. The floor has none.
   */
  updates: number;
  /**
   * ours only: ms the runtime has spun so far for the worker's states (`stats().frameClock.waitMs`: frames that
   * came later than announced wait, bounded, for the states around their time).
   */
  catchUpMs?: () => Promise<number>;
  /** When the root's render was called (performance.now()). */
  mountedAt: number;
  /** Steps on the way to the first frame, ms after `mountedAt`, as a design marks them (`markPhase`). */
  readonly phases: Record<string, number>;
}

/** Marks a step on the way to the first frame, once. */
export function markPhase(probe: HeapProbe, phase: string): void {
  probe.phases[phase] ??= performance.now() - probe.mountedAt;
}

export interface StageProps {
  readonly onCreated: (state: RootState) => void;
  readonly children: ReactNode;
}

export function Stage({ onCreated, children }: StageProps): ReactNode {
  return (
    <Canvas
      dpr={1}
      gl={{ antialias: false }}
      camera={{ position: [0, 30, 48], fov: 50 }}
      onCreated={(state) => {
        state.camera.lookAt(0, 3, 0);
        onCreated(state);
      }}
    >
      <color attach="background" args={['#10141c']} />
      <ambientLight intensity={0.5} />
      <directionalLight position={[10, 20, 8]} intensity={1.6} />
      {children}
    </Canvas>
  );
}

/** The floor's mesh: 1 unit thick, its top at y = 0 (the designs' physics put a fixed cuboid of the same size there). */
export function FloorMesh({ ref }: { ref?: Ref<Mesh> }): ReactNode {
  return (
    <mesh ref={ref ?? null} position={[0, -0.5, 0]}>
      <boxGeometry args={[2 * FLOOR_HALF, 1, 2 * FLOOR_HALF]} />
      <meshStandardMaterial color="#2a3242" />
    </mesh>
  );
}
