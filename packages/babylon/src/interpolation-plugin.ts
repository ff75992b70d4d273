/**
 * The material plugin that makes a Babylon material draw blended thin instances: it injects the vertex blend
 * (`instance-shader.ts`, GLSL or WGSL as the engine compiles the material) into the material's own shader, and,
 * for each mesh given one (`bindBlend`), turns it on with that mesh's defines, attributes and uniforms.
 *
 * ```text
 *   material (StandardMaterial, PBRMaterial: any Babylon material with plugin support)
 *     └─ plugin 'SteadyframeInterpolation', one per material
 *          prepareDefines(mesh)     SF_INSTANCES on for a bound mesh (SF_POSITION, SF_ROTATION, SF_SCALE: its fields)
 *          getAttributes(mesh)      WebGL: sfPosition0/1, sfRotation0/1, sfScale0/1, sfGeneration0/1 (its channels)
 *          hardBindForSubMesh(mesh) sfAlpha, sfPrevCount, sfSnaps, sfFlip from its blend, at every draw;
 *                                   WebGPU: sfCapacity and the storage buffer sfState
 *   a mesh without a blend: SF_INSTANCES off, the material's shader as it was
 * ```
 *
 * Why a plugin and not a ShaderMaterial: the user's material keeps everything it does (lights, textures,
 * fog, PBR, image processing) and keeps drawing their other meshes; the blend is a few lines in its vertex
 * shader, for Babylon's WebGL engine (GLSL) and its WebGPU engine (WGSL) alike, and one material serves as many
 * blended meshes as it likes (each mesh has its own uniforms, set per draw).
 */
import { Constants } from '@babylonjs/core/Engines/constants.js';
import '@babylonjs/core/Materials/materialPluginManager.js';
import { MaterialPluginBase } from '@babylonjs/core/Materials/materialPluginBase.js';
import type { Material } from '@babylonjs/core/Materials/material.js';
import type { MaterialDefines } from '@babylonjs/core/Materials/materialDefines.js';
import { ShaderLanguage } from '@babylonjs/core/Materials/shaderLanguage.js';
import type { UniformBuffer } from '@babylonjs/core/Materials/uniformBuffer.js';
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { StorageBuffer } from '@babylonjs/core/Buffers/storageBuffer.js';
import type { SubMesh } from '@babylonjs/core/Meshes/subMesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { ResolvedTransformFields, TransformChannel } from 'steadyframe/adapter';
import { attributeNames, UNIFORMS, variantDefines, vertexCode } from './instance-shader.ts';
import type { StateBuffers } from './state-buffers.ts';

/** What one blended mesh tells the plugin: its fields and channels once, its uniforms before each draw. */
export interface MeshBlend {
  readonly fields: ResolvedTransformFields;
  readonly channels: readonly TransformChannel[];
  /** Where the frame falls between the previous (0) and current (1) state. */
  alpha: number;
  /** Live entities in the previous state: instances at or past it snap (spawned this tick). */
  prevCount: number;
  /** 1: the pair's tick marked snaps, the generations are on the GPU and compared; 0: not. */
  snaps: number;
  /** Which buffer of each channel holds the previous state (the GPU pair mirror's flip). */
  flip: number;
  /** Where the state is: vertex attributes (WebGL: `storage` null), or a storage buffer of `capacity` entities (WebGPU). */
  readonly state: StateBuffers;
}

const NAME = 'SteadyframeInterpolation';

/** Blends of the meshes drawn with the plugin, by mesh: a mesh without one draws as the material always did. */
const blends = new WeakMap<AbstractMesh, MeshBlend>();

class InterpolationPlugin extends MaterialPluginBase {
  constructor(material: Material) {
    super(material, NAME, 50, { SF_INSTANCES: false, SF_POSITION: 3, SF_ROTATION: 0, SF_SCALE: 0 });
    // hardBindForSubMesh (the uniforms at every draw, frozen material or not) is one of the "extra" events
    this.registerForExtraEvents = true;
    this.doNotSerialize = true;
    this._enable(true);
  }

  override getClassName(): string {
    return 'SteadyframeInterpolationPlugin';
  }

  override isCompatible(language: ShaderLanguage): boolean {
    return language === ShaderLanguage.GLSL || language === ShaderLanguage.WGSL;
  }

  override prepareDefines(defines: MaterialDefines, _scene: Scene, mesh: AbstractMesh): void {
    const blend = blends.get(mesh);
    const d = defines as unknown as Record<string, unknown>;
    d.SF_INSTANCES = blend !== undefined;
    if (blend !== undefined) Object.assign(d, variantDefines(blend.fields));
  }

  override getAttributes(attributes: string[], _scene: Scene, mesh: AbstractMesh): void {
    const blend = blends.get(mesh);
    // the WGSL blend reads a storage buffer, not attributes (WebGPU's 8 vertex buffers would not hold them)
    if (blend === undefined || blend.state.storage !== null) return;
    for (const c of blend.channels) attributes.push(...attributeNames(c));
  }

  override getUniforms(): { externalUniforms: string[] } {
    return { externalUniforms: [...UNIFORMS] };
  }

  override hardBindForSubMesh(_ubo: UniformBuffer, _scene: Scene, engine: AbstractEngine, subMesh: SubMesh): void {
    const blend = blends.get(subMesh.getMesh());
    const effect = subMesh.effect;
    if (blend === undefined || effect === null) return;
    effect.setFloat('sfAlpha', blend.alpha);
    effect.setFloat('sfPrevCount', blend.prevCount);
    effect.setFloat('sfSnaps', blend.snaps);
    effect.setFloat('sfFlip', blend.flip);
    const storage = blend.state.storage;
    if (storage !== null) {
      effect.setFloat('sfCapacity', blend.state.capacity);
      // into the draw context of the effect being bound (Babylon's ShaderMaterial binds its storage buffers so)
      (engine as AbstractEngine & { setStorageBuffer(name: string, buffer: StorageBuffer): void }).setStorageBuffer('sfState', storage);
    }
  }

  override getCustomCode(shaderType: string, language: ShaderLanguage = ShaderLanguage.GLSL): { [point: string]: string } | null {
    return shaderType === 'vertex' ? vertexCode(language === ShaderLanguage.WGSL) : null;
  }
}

/**
 * Draws `mesh` blended by `blend` from now on, through its material's plugin (added to the material the first
 * time); returns the undo (the mesh draws as the material always did). Throws at set-up for a mesh without a
 * material. The material must be one that runs plugins (StandardMaterial, PBRMaterial and their kin; not a
 * ShaderMaterial).
 */
export function bindBlend(mesh: AbstractMesh, blend: MeshBlend, prefix: string): () => void {
  const material = mesh.material;
  if (material === null) throw new TypeError(`${prefix} the mesh needs its material first (mesh.material = new StandardMaterial(...)), before its thin instances are blended`);
  if (material.pluginManager?.getPlugin(NAME) == null) new InterpolationPlugin(material);
  blends.set(mesh, blend);
  // the mesh's defines and attributes changed: its effect is made again on the next draw
  material.markAsDirty(Constants.MATERIAL_AllDirtyFlag);
  return () => {
    if (blends.get(mesh) !== blend) return;
    blends.delete(mesh);
    mesh.material?.markAsDirty(Constants.MATERIAL_AllDirtyFlag);
  };
}
