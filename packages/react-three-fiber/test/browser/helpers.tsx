import { Canvas, type CanvasProps } from '@react-three/fiber';
import { Component, StrictMode, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createRuntime, type Runtime } from 'steadyframe';
// the three.js adapter's fixture: entity i at tick k at x = k + i, y = 4i, turning about +z (its schema.ts)
import type { MotionCommands } from '../../../three/test/browser/fixtures/motion.worker.ts';
import { motionSchema } from '../../../three/test/browser/fixtures/schema.ts';

export type MotionRuntime = Runtime<typeof motionSchema, MotionCommands>;

/** How often `create` was called, every runtime it made, and which of them were disposed. */
export interface Made {
  calls: number;
  readonly runtimes: MotionRuntime[];
  readonly disposed: Set<MotionRuntime>;
}

/** A `create` for `<Steadyframe>` that counts its calls, keeps what it made, and notes each dispose. */
export function runtimeMaker(): { create: () => Promise<MotionRuntime>; made: Made } {
  const made: Made = { calls: 0, runtimes: [], disposed: new Set() };
  const create = async (): Promise<MotionRuntime> => {
    made.calls++;
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: new Worker(new URL('../../../three/test/browser/fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
      schema: motionSchema,
      capacity: 16,
    });
    const dispose = rt.dispose.bind(rt);
    rt.dispose = () => {
      made.disposed.add(rt);
      dispose();
    };
    made.runtimes.push(rt);
    return rt;
  };
  return { create, made };
}

/** Catches what a child throws while rendering: the provider throws a `create` that failed. */
export class Boundary extends Component<{ onError: (error: unknown) => void; children?: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: unknown): void {
    this.props.onError(error);
  }
  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * A 320x200 canvas on the page with `children` in an r3f `<Canvas>` (in StrictMode if asked, in an error boundary
 * if `onError` is given); `unmount` removes it.
 */
export function mount(children: ReactNode, options: { strict?: boolean; canvas?: Partial<CanvasProps>; onError?: (error: unknown) => void } = {}): { root: Root; unmount(): void } {
  const host = document.createElement('div');
  host.style.cssText = 'width: 320px; height: 200px';
  document.body.append(host);
  const root = createRoot(host);
  const canvas = (
    <Canvas dpr={1} camera={{ position: [0, 0, 20] }} {...options.canvas}>
      {children}
    </Canvas>
  );
  // r3f hands what its scene throws to the boundaries around <Canvas>
  const scene = options.onError === undefined ? canvas : <Boundary onError={options.onError}>{canvas}</Boundary>;
  root.render(options.strict === true ? <StrictMode>{scene}</StrictMode> : scene);
  return {
    root,
    unmount() {
      root.unmount();
      host.remove();
    },
  };
}
