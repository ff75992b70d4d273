/**
 * The GPU path's blend as a TSL node, for three.js's node materials (WebGPURenderer): the same arithmetic as
 * the WebGL path's GLSL patch (`../instance-shader.ts`), built as the material's `positionNode`.
 *
 * ```text
 *  per instance (instanceIndex i), reading the pair from storage buffers, one per channel:
 *
 *    channel data: [ buffer 0: entity 0 .. capacity-1, width floats each | buffer 1: the same ]
 *                    sfFlip says which half holds the previous state; the other holds the current one
 *
 *    snap?      i >= sfPrevCount (spawned this tick) or (sfSnaps and the generations differ)
 *    position   mix(prev, curr, alpha)                    (a width-2 position: z = 0)
 *    rotation   nlerp, curr negated when dot < 0 (the shorter path), or an angle about +z the short way
 *    scale      mix(prev, curr, alpha)
 *    normalLocal  = rotate(q, normal / scale)           (the geometry's, where it has normals; tangents alike)
 *    positionNode = rotate(q, local * scale) + position (local: the material's own positionNode, or the vertex)
 * ```
 *
 * Read per backend, chosen when three.js builds the node:
 *
 * ```text
 *   WebGPU backend    storage buffers, one a channel holding both halves: WebGPU gives a pipeline 8 vertex
 *                     buffers, and a geometry's own three plus two per channel would be 11; a full transform
 *                     takes 4 storage buffers in the vertex stage
 *   WebGL 2 backend   no storage buffers in its vertex stage: two instanced attributes a channel, one a half,
 *                     views of the same array (`halves`), as the WebGL path's; WebGL 2 gives 16 vertex attributes,
 *                     and a geometry's three plus a full transform's 8 fit
 * ```
 *
 * At any alpha: past 1 (a late frame under `whenLate: 'extrapolate'`) it carries the last tick on, as the
 * runtime's own blend does.
 */
// a namespace: on a three.js whose TSL lacks a name, set-up says which release is needed (tsl-floor.ts) rather
// than the module failing to link
import * as tsl from 'three/tsl';
import type { InstancedBufferAttribute } from 'three';
import type { Node, NodeBuilder, StorageInstancedBufferAttribute } from 'three/webgpu';
import type { ResolvedFields } from '../fields.ts';
import { requireTsl } from './tsl-floor.ts';

/** The uniforms one interpolated mesh drives. */
export interface InstanceNodeUniforms {
  /** Where the frame falls between the previous (0) and current (1) state. */
  readonly alpha: { value: number };
  /** Which half of each channel's buffer holds the previous state (0 or 1). */
  readonly flip: { value: number };
  /** Live entities in the previous state: instances at or past it snap (they were spawned this tick). */
  readonly previousCount: { value: number };
  /** 1: the pair's tick marked snaps: the generations are in their buffer and compared; 0: not. */
  readonly snaps: { value: number };
}

/** One channel's storage: both halves (`2 * capacity * width` values), float32, or uint32 for the generations. */
export interface NodeChannel {
  readonly role: 'position' | 'rotation' | 'scale' | 'generation';
  readonly width: number;
  /** Both halves, read as a storage buffer (the WebGPU backend). */
  readonly attribute: StorageInstancedBufferAttribute;
  /** Each half as an instanced attribute of `width` (the WebGL 2 backend): views of `attribute`'s array. */
  readonly halves: readonly [InstancedBufferAttribute, InstancedBufferAttribute];
}

/** How a channel's component is read: component `k` of the instance's value in half `half`. */
type Reader = (half: Node<'uint'>, k: number) => Node<'float'>;

const TAU = 6.283185307179586;
const PI = 3.141592653589793;

/**
 * The blend's nodes over `channels` (one per role; a missing rotation or scale is the identity), holding
 * `capacity` entities a half: `uniforms` to drive from the mirror, and `position(local)`, the material's
 * positionNode for a local position node (null: the vertex's own).
 */
export function createInstanceNode(channels: readonly NodeChannel[], capacity: number, fields: ResolvedFields) {
  requireTsl(tsl);
  const { cross, dot, floor, Fn, instancedBufferAttribute, instanceIndex, length, mix, normalLocal, positionLocal, select, sin, cos, storage, tangentLocal, uint, uniform, vec3, vec4 } = tsl;
  const alpha = uniform(1);
  const flip = uniform(0, 'uint');
  const previousCount = uniform(0, 'uint');
  const snaps = uniform(0, 'uint');
  const uniforms: InstanceNodeUniforms = { alpha, flip, previousCount, snaps };

  const find = (role: NodeChannel['role']) => channels.find((c) => c.role === role) ?? null;
  const XYZW = ['x', 'y', 'z', 'w'] as const;

  /** The readers over storage buffers: one float (or uint) a read, at the half's offset. */
  const fromStorage = () => {
    /** The index of component `k` of instance `i`'s value in half `half` of a channel of `width`. */
    const index = (width: number, half: Node<'uint'>, k: number) => half.mul(capacity * width).add(instanceIndex.mul(width)).add(k);
    const floats = (role: NodeChannel['role']): Reader | null => {
      const channel = find(role);
      if (channel === null) return null;
      const data = storage(channel.attribute, 'float', 2 * capacity * channel.width).toReadOnly();
      return (half, k) => data.element(index(channel.width, half, k));
    };
    const generations = storage(find('generation')!.attribute, 'uint', 2 * capacity).toReadOnly();
    return { floats, generation: (half: Node<'uint'>): Node<'uint'> => generations.element(index(1, half, 0)) };
  };

  /** The readers over instanced attributes: the instance's value in each half, the flip's half selected. */
  const fromAttributes = () => {
    const TYPES = ['float', 'vec2', 'vec3', 'vec4'] as const;
    const pair = (channel: NodeChannel, type: string): [Node, Node] => [instancedBufferAttribute(channel.halves[0], type), instancedBufferAttribute(channel.halves[1], type)];
    const floats = (role: NodeChannel['role']): Reader | null => {
      const channel = find(role);
      if (channel === null) return null;
      const [a, b] = pair(channel, TYPES[channel.width - 1]!);
      const component = (value: Node, k: number): Node<'float'> => (channel.width === 1 ? value : (value as unknown as Record<string, Node>)[XYZW[k]!]!) as Node<'float'>;
      return (half, k) => select(half.equal(0), component(a, k), component(b, k));
    };
    const [a, b] = pair(find('generation')!, 'uint');
    return { floats, generation: (half: Node<'uint'>): Node<'uint'> => select(half.equal(0), a, b) as Node<'uint'> };
  };

  const blend = (local: Node<'vec3'> | null) =>
    Fn((builder) => {
      // WebGPURenderer's WebGL 2 backend has no storage buffers in the vertex stage (three.js would make one an
      // attribute that reads the instance's own first float, whatever the index)
      const onStorage = (builder as NodeBuilder & { isAvailable(name: string): boolean }).isAvailable('storageBuffer');
      const { floats, generation } = onStorage ? fromStorage() : fromAttributes();
      const position = floats('position')!;
      const rotation = floats('rotation');
      const scale = floats('scale');
      const previous: Node<'uint'> = flip;
      const current = uint(1).sub(flip);
      // spawned this tick (no previous state) or, when the tick marked snaps, a new generation (teleported)
      const snap = instanceIndex.greaterThanEqual(previousCount).or(snaps.notEqual(0).and(generation(previous).notEqual(generation(current)))).toVar('sfSnap');

      const vector = (read: Reader, half: Node<'uint'>, width: number): Node<'vec3'> =>
        width === 2 ? vec3(read(half, 0), read(half, 1), 0) : vec3(read(half, 0), read(half, 1), read(half, 2));
      const width = fields.position.width;
      const p1 = vector(position, current, width);
      const at = select(snap, p1, mix(vector(position, previous, width), p1, alpha)).toVar('sfPosition');

      let q: Node<'vec4'> = vec4(0, 0, 0, 1);
      if (rotation !== null && fields.rotation?.kind === 'quaternion') {
        const quaternion = (half: Node<'uint'>) => vec4(rotation(half, 0), rotation(half, 1), rotation(half, 2), rotation(half, 3));
        const q0 = quaternion(previous).toVar();
        const q1 = quaternion(current).toVar();
        const shorter = select(dot(q0, q1).lessThan(0), q1.negate(), q1);
        const blended = select(snap, q1, mix(q0, shorter, alpha)).toVar();
        const l = length(blended);
        q = select(l.greaterThan(0), blended.div(l), vec4(0, 0, 0, 0)).toVar('sfRotation');
      } else if (rotation !== null) {
        const a0 = rotation(previous, 0).toVar();
        const a1 = rotation(current, 0).toVar();
        const d = a1.sub(a0).toVar();
        d.subAssign(floor(d.add(PI).div(TAU)).mul(TAU));
        const angle = select(snap, a1, a0.add(d.mul(alpha))).mul(0.5).toVar();
        q = vec4(0, 0, sin(angle), cos(angle)).toVar('sfRotation');
      }
      let s: Node<'vec3'> = vec3(1, 1, 1);
      if (scale !== null && fields.scale?.width === 1) {
        const s1 = scale(current, 0);
        s = vec3(select(snap, s1, mix(scale(previous, 0), s1, alpha))).toVar('sfScale');
      } else if (scale !== null) {
        const s1 = vector(scale, current, 3);
        s = select(snap, s1, mix(vector(scale, previous, 3), s1, alpha)).toVar('sfScale');
      }
      // v turned by the unit quaternion q
      const rotate = (v: Node<'vec3'>): Node<'vec3'> => {
        const t = cross(q.xyz, v).mul(2).toVar();
        return v.add(t.mul(q.w)).add(cross(q.xyz, t));
      };
      if (builder.geometry.hasAttribute('normal')) normalLocal.assign(rotate(normalLocal.div(s)));
      if (builder.geometry.hasAttribute('tangent')) tangentLocal.assign(rotate(tangentLocal.mul(s)));
      return rotate((local ?? positionLocal).mul(s)).add(at);
    })();

  return { uniforms, position: blend };
}
