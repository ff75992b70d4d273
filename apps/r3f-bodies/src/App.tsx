/**
 * A React Three Fiber scene on steadyframe: boxes fall in Rapier in a worker at 60 Hz, and r3f draws them at the
 * display's rate, blended on the GPU (<InterpolatedInstances>); the first box wears a ring that follows it
 * (useEntity); a click drops another heap (a command to the worker). `window.bodies` carries hooks for the e2e test.
 */
import { Canvas, useFrame, useThree } from '@react-three/fiber';
import { InterpolatedInstances, Steadyframe, useEntity, useSteadyframe, useSteadyframeContext } from '@steadyframe/react-three-fiber';
import { useEffect, useMemo, useState } from 'react';
import { createRuntime, type Runtime } from 'steadyframe';
import { BoxGeometry, MeshStandardMaterial, type Mesh } from 'three';
import type { Commands, Setup } from './bodies.worker.ts';
import { CAPACITY, HEAP, START_BODIES, schema, type BodiesSchema } from './schema.ts';

export interface BodiesHooks {
  runtime: Runtime<BodiesSchema, Commands> | null;
  /** Frames r3f drew (the refreshes the pacer kept). */
  frames: number;
  /** Bodies in the world, as the worker last said. */
  bodies: number;
}

declare global {
  interface Window {
    bodies?: BodiesHooks;
  }
}

const hooks: BodiesHooks = { runtime: null, frames: 0, bodies: 0 };
window.bodies = hooks;

const asked = Number(new URLSearchParams(location.search).get('bodies') ?? START_BODIES);
const startBodies = Number.isInteger(asked) ? Math.max(0, Math.min(CAPACITY, asked)) : START_BODIES;

const makeRuntime = () =>
  createRuntime<BodiesSchema, Commands, Setup>({
    worker: new Worker(new URL('./bodies.worker.ts', import.meta.url), { type: 'module', name: 'bodies' }),
    schema,
    capacity: CAPACITY,
    setup: { bodies: startBodies },
  });

function Boxes() {
  const geometry = useMemo(() => new BoxGeometry(0.8, 0.8, 0.8), []);
  const material = useMemo(() => new MeshStandardMaterial({ color: '#f4a340', roughness: 0.6 }), []);
  return <InterpolatedInstances<BodiesSchema, MeshStandardMaterial> geometry={geometry} material={material} fields={{ position: 'position', rotation: 'rotation' }} castShadow />;
}

/** A ring around box 0, moved by it on the CPU (every interpolation option applies). */
function Marker() {
  const ref = useEntity<Mesh, BodiesSchema>(0, { position: 'position', rotation: 'rotation' });
  return (
    <mesh ref={ref}>
      <torusGeometry args={[0.8, 0.08, 12, 32]} />
      <meshStandardMaterial color="#5ad1ff" emissive="#1c6f8f" />
    </mesh>
  );
}

/** The floor; a click on it drops another heap. */
function Floor() {
  const runtime = useSteadyframe<BodiesSchema, Commands>();
  return (
    <mesh rotation-x={-Math.PI / 2} receiveShadow onClick={() => void runtime.commands.drop(HEAP)}>
      <planeGeometry args={[30, 30]} />
      <meshStandardMaterial color="#2a3242" />
    </mesh>
  );
}

/** Backs the camera off on a narrow screen (the field of view is vertical), so the floor fits across. */
function FitCamera() {
  const { camera, size } = useThree();
  useEffect(() => {
    const back = Math.max(1, 1.25 / (size.width / size.height));
    camera.position.set(0, 18 * back, 32 * back);
    camera.lookAt(0, 0, 0);
  }, [camera, size]);
  return null;
}

/** Keeps the page's hooks up to date, and the HUD's count (asked of the worker twice a second). */
function Stats({ onBodies }: { onBodies: (n: number) => void }) {
  const { runtime, paced } = useSteadyframeContext<BodiesSchema, Commands>();
  useEffect(() => {
    hooks.runtime = runtime;
    const timer = setInterval(() => void runtime.commands.count().then((n) => onBodies((hooks.bodies = n))), 500);
    return () => clearInterval(timer);
  }, [runtime, onBodies]);
  useFrame(() => {
    if (paced()) hooks.frames++;
  });
  return null;
}

export function App() {
  const [bodies, setBodies] = useState(startBodies);
  return (
    <>
      {/* "percentage": PCFShadowMap. `shadows` alone asks for PCFSoftShadowMap, which three.js r18x no longer has
          (it warns and draws PCFShadowMap instead): the same picture, asked for by its name */}
      <Canvas shadows="percentage" camera={{ position: [0, 18, 32], fov: 50 }}>
        <color attach="background" args={['#10141c']} />
        <ambientLight intensity={0.5} />
        <directionalLight position={[10, 20, 8]} intensity={1.6} castShadow />
        <FitCamera />
        <Steadyframe create={makeRuntime}>
          <Boxes />
          <Marker />
          <Floor />
          <Stats onBodies={setBodies} />
        </Steadyframe>
      </Canvas>
      <div id="hud">
        Rapier in a worker at 60 Hz, drawn by React Three Fiber at the display's rate · <b id="count">{bodies}</b> boxes · click the floor for {HEAP} more
      </div>
    </>
  );
}
