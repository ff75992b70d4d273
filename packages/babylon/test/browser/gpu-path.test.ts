// The GPU path on Babylon's WebGL 2 engine: the GLSL blend (the cases: gpu-path-cases.ts).
import { gpuPathCases } from './gpu-path-cases.ts';

gpuPathCases('webgl');
