/**
 * `<Steadyframe>`: makes the runtime when it mounts, disposes it when it unmounts, and paces React Three Fiber's
 * frames by it. It lives inside `<Canvas>` (its hooks are r3f's), and renders its children once the runtime is
 * made, so that every hook below it has one.
 *
 * ```text
 *  r3f's loop, one animation frame (useFrame callbacks by priority, lowest first):
 *   addEffect(timestamp)        the rAF timestamp, kept for pace()
 *   PACE_PRIORITY   (-100)      paced = runtime.pace(timestamp): draw on this refresh? tells the worker the next frame
 *   UPDATE_PRIORITY (-50)       <InterpolatedInstances>, useEntity: bring their objects to runtime.frameTime
 *   0                           your useFrame callbacks (runtime.frameTime is this frame's time)
 *   RENDER_PRIORITY (1)         gl.render(scene, camera) on the refreshes the pacer keeps (`render={false}`: yours)
 * ```
 *
 * r3f's loop began before the runtime's frame hooks, so the runtime cannot enclose it (ARCHITECTURE.md, "The
 * frame clock"): the provider passes rAF's own timestamp, which r3f hands its global effects, to `pace()`.
 */
import { addEffect, invalidate, useFrame, useThree } from '@react-three/fiber';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Frame, Runtime, Schema } from 'steadyframe';

/** useFrame priority of the provider's `pace()`: before every update. */
export const PACE_PRIORITY = -100;
/** useFrame priority at which the bindings update their objects: after the pace, before yours (0). */
export const UPDATE_PRIORITY = -50;
/** useFrame priority of the provider's render; a positive priority takes rendering from r3f. */
export const RENDER_PRIORITY = 1;
/** While the loop idles under `frameloop="demand"`, how often the provider looks for newly published ticks, ms. */
export const DEMAND_POLL_MS = 100;

/** What the provider shares with the bindings below it. */
export interface SteadyframeContext<S extends Schema = Schema, C extends object = Record<never, never>> {
  readonly runtime: Runtime<S, C>;
  /** Whether this animation frame is one to draw (the last `pace()`'s answer). */
  paced(): boolean;
  /** The runtime's frame at this frame's time (`runtime.sample(runtime.frameTime)`), made once per frame and shared. */
  frame(): Frame<S>;
}

const Context = createContext<SteadyframeContext<Schema, object> | null>(null);

export interface SteadyframeProps<S extends Schema, C extends object> {
  /**
   * Makes the runtime, e.g. `() => createRuntime({ worker: new Worker(...), schema, capacity })`. Called once per
   * mount; under StrictMode's mount, unmount and mount again, the first runtime is disposed as soon as it is made.
   * Read when the provider mounts: a new function later does not make a new runtime (remount with a `key` for that).
   */
  readonly create: () => Promise<Runtime<S, C>>;
  /** Starts the simulation once the runtime is made (default true). */
  readonly start?: boolean;
  /**
   * Renders the scene at RENDER_PRIORITY on the refreshes the pacer keeps (default true). `false`: you render,
   * from a useFrame of positive priority (an EffectComposer), and `useSteadyframeContext().paced()` says whether to.
   */
  readonly render?: boolean;
  /** Shown (inside the canvas) until the runtime is made. */
  readonly fallback?: ReactNode;
  readonly children?: ReactNode;
}

/**
 * Runs a steadyframe runtime for the r3f scene below it: made from `create` when it mounts, started, paced every
 * animation frame, disposed when it unmounts. A `create` that rejects is thrown from the provider's render, to
 * the nearest error boundary.
 */
export function Steadyframe<S extends Schema, C extends object>({ create, start = true, render = true, fallback = null, children }: SteadyframeProps<S, C>): ReactNode {
  const [runtime, setRuntime] = useState<Runtime<S, C> | null>(null);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const made = useRef(create);
  useEffect(() => {
    let live = true;
    let runtime: Runtime<S, C> | null = null;
    made
      .current()
      .then(async (rt) => {
        runtime = rt;
        if (!live) return rt.dispose();
        if (start) await rt.start();
        if (live) setRuntime(rt);
      })
      .catch((error: unknown) => {
        // a start cut short by the unmount's dispose is no failure
        if (live) setFailure({ error });
      });
    return () => {
      live = false;
      runtime?.dispose();
      setRuntime(null);
    };
    // made once per mount: `create` is read when the provider mounts
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (failure !== null) throw failure.error;
  if (runtime === null) return fallback;
  return (
    <Paced runtime={runtime} render={render}>
      {children}
    </Paced>
  );
}

function Paced<S extends Schema, C extends object>({ runtime, render, children }: { runtime: Runtime<S, C>; render: boolean; children?: ReactNode }): ReactNode {
  const frameloop = useThree((state) => state.frameloop);
  const [context] = useState(() => {
    /** `frame`: this animation frame's sample, made on first ask (the pace clears it). */
    const state = { timestamp: Number.NaN, paced: false, published: -1, frame: null as Frame<S> | null };
    const value: SteadyframeContext<S, C> = {
      runtime,
      paced: () => state.paced,
      frame() {
        const time = runtime.frameTime;
        return (state.frame ??= runtime.sample(Number.isNaN(time) ? undefined : time));
      },
    };
    return { state, value };
  });
  const { state } = context;
  // the rAF timestamp of the frame r3f is running, before any useFrame (r3f runs its global effects first)
  useEffect(() => addEffect((timestamp) => void (state.timestamp = timestamp)), [state]);
  useFrame(() => {
    state.paced = runtime.pace(Number.isNaN(state.timestamp) ? undefined : state.timestamp);
    // sampled again in this frame, if asked: a frame at the time of the one before may find newer states
    state.frame = null;
    // on demand, a frame asks for the next while the world moves: a tick came since the last frame, or this frame
    // is still short of the newest state (not late). A paused or stopped simulation lets the loop stop
    if (frameloop === 'demand') {
      const published = runtime.reader.publishCount();
      if (published !== state.published || !context.value.frame().late) invalidate();
      state.published = published;
    }
  }, PACE_PRIORITY);
  useFrame(
    ({ gl, scene, camera }) => {
      if (render && state.paced) gl.render(scene, camera);
    },
    render ? RENDER_PRIORITY : 0,
  );
  useDemandWake(runtime, frameloop);
  return <Context.Provider value={context.value as unknown as SteadyframeContext<Schema, object>}>{children}</Context.Provider>;
}

/**
 * Under `frameloop="demand"` the loop stops when nothing invalidates it: the provider's pace invalidates while the
 * world moves, so it stops once the worker stops publishing (paused, stopped) and the frames reached its newest
 * state. While it idles, a poll every DEMAND_POLL_MS of the publish count (one atomic read) wakes it when ticks
 * come again (resume, stepOnce, restart).
 */
function useDemandWake<S extends Schema, C extends object>(runtime: Runtime<S, C>, frameloop: string): void {
  useEffect(() => {
    if (frameloop !== 'demand') return;
    let seen = runtime.reader.publishCount();
    const timer = setInterval(() => {
      const now = runtime.reader.publishCount();
      if (now !== seen) invalidate();
      seen = now;
    }, DEMAND_POLL_MS);
    return () => clearInterval(timer);
  }, [runtime, frameloop]);
}

/** The provider's context: the runtime, whether this frame is drawn, and the shared frame. Throws outside a `<Steadyframe>`. */
export function useSteadyframeContext<S extends Schema = Schema, C extends object = Record<never, never>>(): SteadyframeContext<S, C> {
  const context = useContext(Context);
  if (context === null) throw new Error('@steadyframe/react-three-fiber: this hook is used outside <Steadyframe>; put the component inside it (inside <Canvas>)');
  return context as unknown as SteadyframeContext<S, C>;
}

/** The runtime of the nearest `<Steadyframe>`: its commands, `sendInput`, `stats()`, pause and resume. */
export function useSteadyframe<S extends Schema = Schema, C extends object = Record<never, never>>(): Runtime<S, C> {
  return useSteadyframeContext<S, C>().runtime;
}
