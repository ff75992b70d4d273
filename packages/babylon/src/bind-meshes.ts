/**
 * The CPU path: one Babylon node (a Mesh, an InstancedMesh, any TransformNode) per entity, moved each frame to
 * the runtime's interpolated transform: a player, a boss, a camera rig, a handful of bodies; or one made for each
 * entity of a table and disposed with it, kept by handle through the despawns that move entities within it.
 *
 * ```text
 *   runtime.frame() ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ node.position,
 *                       or frame.tables[table].fields (given a table)                    rotationQuaternion, scaling
 *
 *   bindMeshes(runtime, nodes, fields, entities?)            nodes[i] ◀── entity entities[i] (i)
 *   bindMeshes(runtime, { table, create, parent }, fields)   one node per live entity of the table, by handle:
 *                                                              spawned: create(handle) (parented to parent)
 *                                                              live:    moved to its entity, wherever it is now
 *                                                              gone:    release(node), or node.dispose()
 * ```
 *
 * It draws the runtime's own Frame, so every interpolation option applies (render delay, extrapolation,
 * snapDistance). Each node is a draw call of its own: for many entities, `createInterpolatedThinInstances`.
 */
import { Quaternion } from '@babylonjs/core/Maths/math.vector.js';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import type { Frame, Runtime, Schema, TableName } from 'steadyframe';
import { createTableObjects, frameSource, readTransform, transformViews, type ResolvedTransformFields, type TransformViews } from 'steadyframe/adapter';
import { PREFIX, resolveBinding, type BoundSchema, type TableOption, type TransformFields } from './fields.ts';

/** What `bindMeshes` returns for a list of nodes. */
export interface MeshesBinding<S extends Schema> {
  readonly nodes: readonly TransformNode[];
  /**
   * Moves `nodes[i]` to the frame's entity `entities[i]` (i by default; the table's entity, given a table):
   * position, rotationQuaternion (and scaling, if bound); and enables each node whose entity is live, disables
   * the others. `entities` is read at every update: change it in place to rebind. Allocates nothing.
   */
  update(frame: Frame<S>): void;
}

/** Options of `bindMeshes` for a list of nodes. */
export interface MeshesOptions<N extends string> extends TableOption<N> {
  /** `nodes[i]` shows entity `entities[i]` (the table's entity, given a table); i by default. */
  readonly entities?: readonly number[];
}

/** Options of `bindMeshes` for one node per entity of a table. */
export interface PerHandleMeshes<N extends string, T extends TransformNode> {
  /** The table whose entities get a node each. */
  readonly table: N;
  /** Makes the node of a new entity (handle `handle`, now at the table's index `index`). */
  create(handle: number, index: number): T;
  /** The parent `create`'s nodes are given. */
  readonly parent?: TransformNode;
  /** The entity is gone: dispose of its node (or keep it, disabled, for a later `create`). Default `node.dispose()`. */
  release?(node: T, handle: number): void;
}

/** What `bindMeshes` returns for one node per entity of a table. */
export interface HandleMeshesBinding<S extends Schema, T extends TransformNode> {
  /** Follows the frame's table: releases the nodes of entities gone, creates new ones, moves every live one. Returns how many it holds. */
  update(frame: Frame<S>): number;
  /** The node of the entity with `handle`, as of the last `update`; undefined for none. */
  get(handle: number): T | undefined;
  readonly size: number;
  /** Releases every node (an `update` after makes them again). */
  clear(): void;
}

/**
 * Binds Babylon nodes to entities of the runtime's interpolated state (see the file's comment for the two
 * forms). Throws at set-up if a field does not fit (see `TransformFields`) or is not one of the table's, the
 * table is not one of the schema's, an entity is not a whole number from 0, or `entities` and `nodes` differ in
 * length. Gives each node a `rotationQuaternion` (Babylon then ignores its Euler `rotation`).
 */
export function bindMeshes<S extends Schema, N extends TableName<S>, T extends TransformNode>(
  runtime: Pick<Runtime<S>, 'schema'>,
  perHandle: PerHandleMeshes<N, T>,
  fields: TransformFields<BoundSchema<S, N>>,
): HandleMeshesBinding<S, T>;
export function bindMeshes<S extends Schema, N extends TableName<S> = never>(
  runtime: Pick<Runtime<S>, 'schema'>,
  nodes: readonly TransformNode[],
  fields: TransformFields<BoundSchema<S, N>>,
  options?: readonly number[] | MeshesOptions<N>,
): MeshesBinding<S>;
export function bindMeshes<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema'>,
  what: readonly TransformNode[] | PerHandleMeshes<string, TransformNode>,
  fields: TransformFields<S>,
  options?: readonly number[] | MeshesOptions<string>,
): MeshesBinding<S> | HandleMeshesBinding<S, TransformNode> {
  if (!Array.isArray(what)) return perHandle(runtime.schema, what as PerHandleMeshes<string, TransformNode>, fields);
  const nodes = what as readonly TransformNode[];
  const { table: name, entities } = Array.isArray(options) ? { table: undefined, entities: options as readonly number[] } : ((options ?? {}) as MeshesOptions<string>);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, name, 'bindMeshes');
  if (entities !== undefined) {
    if (entities.length !== nodes.length) throw new RangeError(`${PREFIX} bindMeshes got ${nodes.length} nodes and ${entities.length} entities; give one per node`);
    const bad = entities.find((e) => !Number.isInteger(e) || e < 0);
    if (bad !== undefined) throw new RangeError(`${PREFIX} an entity is a whole number from 0 (its index in the world, or in its table); got ${bad}`);
  }
  for (const node of nodes) node.rotationQuaternion ??= new Quaternion();
  const views: TransformViews = { position: new Float32Array(0), rotation: null, scale: null };
  return {
    nodes,
    update(frame) {
      const source = frameSource(frame, table);
      transformViews(resolved, source.fields, views);
      for (let i = 0; i < nodes.length; i++) {
        const node = nodes[i]!;
        const entity = entities === undefined ? i : entities[i]!;
        const live = entity < source.count;
        if (node.isEnabled(false) !== live) node.setEnabled(live);
        if (live) place(node, resolved, views, entity);
      }
    },
  };
}

/** One node per live entity of a table, kept by handle. */
function perHandle<S extends Schema>(schema: S, options: PerHandleMeshes<string, TransformNode>, fields: TransformFields<S>): HandleMeshesBinding<S, TransformNode> {
  if (typeof options !== 'object' || options === null || typeof options.create !== 'function' || typeof options.table !== 'string') {
    throw new TypeError(`${PREFIX} bindMeshes takes a list of nodes, or { table, create(handle) } for one node per entity of a table`);
  }
  const { table, fields: resolved } = resolveBinding(schema, fields, options.table, 'bindMeshes');
  const { create, parent, release } = options;
  const views: TransformViews = { position: new Float32Array(0), rotation: null, scale: null };
  const nodes = createTableObjects<S, TransformNode>(table!, {
    read(shown) {
      transformViews(resolved, shown.fields, views);
    },
    create(handle, index) {
      const node = create(handle, index);
      node.rotationQuaternion ??= new Quaternion();
      if (parent !== undefined) node.parent = parent;
      return node;
    },
    update(node, index) {
      place(node, resolved, views, index);
    },
    release(node, handle) {
      if (release !== undefined) release(node, handle);
      else node.dispose();
    },
  });
  return {
    update(frame) {
      nodes.update(frame);
      return nodes.size;
    },
    get: (handle) => nodes.get(handle),
    get size() {
      return nodes.size;
    },
    clear: () => nodes.clear(),
  };
}

/** Moves `node` to entity `i` of `views`: position, rotationQuaternion, and scaling when a scale is bound. */
function place(node: TransformNode, fields: ResolvedTransformFields, views: TransformViews, i: number): void {
  const t = readTransform(fields, views, i);
  node.position.set(t.px, t.py, t.pz);
  node.rotationQuaternion!.set(t.qx, t.qy, t.qz, t.qw);
  if (fields.scale !== null) node.scaling.set(t.sx, t.sy, t.sz);
}
