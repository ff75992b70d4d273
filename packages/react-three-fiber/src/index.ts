/**
 * @steadyframe/react-three-fiber: a steadyframe runtime in a React Three Fiber scene.
 *
 * ```tsx
 * <Canvas>
 *   <Steadyframe create={() => createRuntime({ worker: new Worker(new URL('./game.worker.ts', import.meta.url), { type: 'module' }), schema, capacity: 10_000 })}>
 *     <InterpolatedInstances geometry={box} material={material} fields={{ position: 'position', rotation: 'rotation' }} />
 *     <Player />
 *   </Steadyframe>
 * </Canvas>
 * ```
 *
 * With entity tables (`defineTables`): `<InterpolatedInstances table="ships">` draws one table; `useTableEntities`
 * and `useTableEntity` keep a React element per entity, keyed by handle.
 *
 * @module @steadyframe/react-three-fiber
 */
export { DEMAND_POLL_MS, PACE_PRIORITY, RENDER_PRIORITY, Steadyframe, UPDATE_PRIORITY, useSteadyframe, useSteadyframeContext } from './provider.tsx';
export type { SteadyframeContext, SteadyframeProps } from './provider.tsx';
export { InterpolatedInstances } from './instances.tsx';
export type { InterpolatedInstancesProps } from './instances.tsx';
export { WEBGPU_RENDERER } from './instances.tsx';
export { useEntity } from './entity.ts';
export { useTableEntities, useTableEntity } from './table-entities.ts';
export { useFrameEvents, useGameState } from './frame-events.ts';
