// The GPU path on Babylon's WebGPU engine (Dawn's SwiftShader adapter here): the WGSL blend, drawn into a
// render target and read back (the cases: ../browser/gpu-path-cases.ts).
import { gpuPathCases } from '../browser/gpu-path-cases.ts';

gpuPathCases('webgpu');
