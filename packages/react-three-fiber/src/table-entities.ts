/**
 * A React element per entity of a table, keyed by handle: `useTableEntities` is the table's live handles as React
 * state, which changes only when an entity spawns or despawns; `useTableEntity` moves one element's object by
 * its entity every drawn frame, with no render, wherever despawns move the entity within its table.
 *
 * ```text
 *   <Ships>      const handles = useTableEntities('ships')       renders on spawn / despawn only
 *     <Label key={handle} handle={handle}>                        mounts with its entity, unmounts after it
 *       ref = useTableEntity('ships', handle, fields)             each drawn frame: indexOf(handle) in the frame,
 *                                                                   that entity's transform; hidden once it is gone
 * ```
 */
import { useFrame } from '@react-three/fiber';
import { bindObjects, type BoundSchema, type TransformFields } from '@steadyframe/three';
import { useMemo, useRef, useState, type RefObject } from 'react';
import type { FrameTable, Schema, TableName } from 'steadyframe';
import { bindingTable } from 'steadyframe/adapter';
import { Object3D } from 'three';
import { UPDATE_PRIORITY, useSteadyframeContext } from './provider.tsx';

const PREFIX = '@steadyframe/react-three-fiber:';

/** The live handles of a frame's table, ascending. Allocates: called only when they changed. */
function handlesOf(table: FrameTable): number[] {
  const handles: number[] = [];
  for (let i = 0; i < table.count; i++) handles.push(table.handle(i));
  return handles.sort((a, b) => a - b);
}

/**
 * The handles of the live entities of `table` (a schema of `defineTables`), ascending, as React state: the
 * component renders again in the animation frame whose picture first shows a spawn or a despawn, and only then
 * (the entities' motion renders nothing). Key an element per entity by its handle, and move its object with
 * `useTableEntity`. Checked while rendering: a name that is not one of the schema's tables throws, naming them.
 *
 * ```tsx
 * function Labels() {
 *   const ships = useTableEntities<typeof schema>('ships');
 *   return ships.map((handle) => <Label key={handle} handle={handle} />);
 * }
 * ```
 */
export function useTableEntities<S extends Schema>(table: TableName<S>): readonly number[] {
  const { runtime, paced, frame } = useSteadyframeContext<S>();
  useMemo(() => bindingTable(runtime.schema, table, `${PREFIX} useTableEntities`), [runtime, table]);
  const shownTable = (): FrameTable => (frame().tables as unknown as Readonly<Record<string, FrameTable>>)[table]!;
  const [handles, setHandles] = useState<readonly number[]>(() => handlesOf(shownTable()));
  // the handles shown, as a set: each frame compares the table's with it, allocating nothing while they agree
  const shown = useRef<{ table: string; set: Set<number> } | null>(null);
  if (shown.current === null || shown.current.table !== table) shown.current = { table, set: new Set(handles) };
  useFrame(() => {
    if (!paced()) return;
    const now = shownTable();
    const set = shown.current!.set;
    let same = now.count === set.size;
    for (let i = 0; same && i < now.count; i++) same = set.has(now.handle(i));
    if (same) return;
    const next = handlesOf(now);
    shown.current = { table, set: new Set(next) };
    setHandles(next);
  }, UPDATE_PRIORITY);
  return handles;
}

/**
 * Returns a ref to put on an r3f object: each drawn frame sets its position, quaternion (and scale, if bound)
 * from the entity of `table` whose handle is `handle`, wherever despawns have moved it within the table, and hides
 * it while no live entity has that handle (between its despawn and the unmount `useTableEntities` brings). The
 * frame is sampled once per animation frame and shared; nothing renders. Checked while rendering: a table or a
 * field that does not fit throws.
 *
 * ```tsx
 * function Label({ handle }: { handle: number }) {
 *   const ref = useTableEntity<Group, typeof schema>('ships', handle, { position: 'position' });
 *   return <group ref={ref}><Text>{`ship ${handle}`}</Text></group>;
 * }
 * ```
 */
export function useTableEntity<T extends Object3D = Object3D, S extends Schema = Schema, N extends TableName<S> = TableName<S>>(
  table: N,
  handle: number,
  fields: TransformFields<BoundSchema<S, N>>,
): RefObject<T | null> {
  const { runtime, paced, frame } = useSteadyframeContext<S>();
  const ref = useRef<T>(null);
  const key = `${fields.position}|${fields.rotation ?? ''}|${fields.scale ?? ''}`;
  // bound while rendering (a misfit throws to the error boundary); the object slot is filled from the ref each frame
  const bound = useMemo(() => {
    const objects: Object3D[] = [new Object3D()];
    return { objects, binding: bindObjects<S, N>(runtime, objects, fields, { table, handles: [handle] }) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runtime, table, handle, key]);
  useFrame(() => {
    const object = ref.current;
    if (object === null || !paced()) return;
    bound.objects[0] = object;
    bound.binding.update(frame());
  }, UPDATE_PRIORITY);
  return ref;
}
