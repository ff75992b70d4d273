// A module-resolution hook (node:module's `register`): every `import ... from 'typescript'` in this process gets
// TypeScript 5.9, installed as `typescript-classic`. TypeDoc reads sources through TypeScript's classic compiler
// API, which TypeScript 7 (the workspace's `typescript`, the one pnpm gives TypeDoc as its peer) no longer has.
//
//   typedoc ──import 'typescript'──▶ this hook ──▶ node_modules/typescript-classic (5.9)
//   tsc (the workspace's type-check) ─────────────▶ node_modules/typescript (7)

/** @type {string} */
let classic;

/** @param {{ url: string }} data the file URL of typescript-classic's entry, from `register`'s caller */
export function initialize(data) {
  classic = data.url;
}

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript') return { url: classic, shortCircuit: true, format: 'commonjs' };
  return next(specifier, context);
}
