// Docs rot: what the docs and the code comments name must exist. Run by site/test/rot.test.ts; `node
// site/scripts/rot.mjs` prints the findings.
//
//   where it looks                          what it checks
//   ──────────────                          ──────────────
//   site pages, README.md, ARCHITECTURE.md  a repository path (`packages/three/src/frame-time.ts`, `core/layout.ts`)
//   packages' and apps' READMEs, docs/*.md    names a tracked file (from the root, beside the text, or as the end
//   comments of packages/ apps/ scripts/      of a tracked path); a bare file name (`slot-writer.ts`) names one
//                                             somewhere, or an example file of the docs (`// sim.worker.ts`)
//                                           an `import { a } from 'steadyframe/x'` in any code block: x exports a
//                                           an API name in prose (`createRuntime(...)`, `frame.fields`,
//                                             `stats().frameClock.outsideFrames`): each camelCase word of it is
//                                             exported, or a word of the sources
//                                           a section named by title (the file's name, then the title in double
//                                             quotes): the file has a heading, or a bold paragraph lead, of it
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readmeExamples, siteExamples, sitePages } from '../../scripts/readme-examples.mjs';
import { ENTRY_POINTS } from './entry-points.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Tracked files (and new ones not ignored), relative to the root. */
export function repositoryFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return out.split('\n').filter((line) => line !== '' && !line.startsWith('site/api/'));
}

/** The texts the check reads: [path, text, kind] with kind 'doc' (markdown) or 'code' (its comments only). */
export function sources(files = repositoryFiles()) {
  const docs = files.filter(
    (path) =>
      path === 'README.md' ||
      path === 'ARCHITECTURE.md' ||
      path === 'CHANGELOG.md' ||
      /^(packages|apps)\/[^/]+\/README\.md$/.test(path) ||
      /^docs\/[^/]+\.md$/.test(path) ||
      sitePages().some((page) => path === `site/${page}.md`),
  );
  const code = files.filter(
    (path) =>
      /^(packages|apps)\/[^/]+\/(src|test|bench|scripts|vite)\/.+\.(ts|tsx|mjs|js)$/.test(path) ||
      /^scripts\/[^/]+\.mjs$/.test(path) ||
      /^site\/(scripts|test|\.vitepress)\/.+\.(ts|mjs)$/.test(path) ||
      /^vitest\.[\w.]+\.ts$/.test(path),
  );
  // the rot test names the rot it must catch, by design
  const checked = code.filter((path) => path !== 'site/test/rot.test.ts');
  return [
    ...docs.map((path) => [path, readFileSync(join(ROOT, path), 'utf8'), 'doc']),
    ...checked.map((path) => [path, comments(readFileSync(join(ROOT, path), 'utf8')), 'code']),
  ];
}

/**
 * A source file's comments (line and block), one per line, the code blanked: string literals are code (a path in
 * a test's string is data, not a claim). Good enough for our sources: a `//` inside a string is rare and only
 * adds text to check.
 */
export function comments(text) {
  const out = [];
  for (const match of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)) out.push(match[0]);
  return out.join('\n');
}

const PATH = /(?<![\w@/.:-])((?:\.\.?\/)?(?:[\w@.-]+\/)+[\w.-]+\.(?:tsx?|mjs|js|json|md|png|svg|ya?ml|html))(?![\w/])/g;
const BARE = /`([\w-]+(?:\.[\w-]+)*\.(?:tsx?|mjs))`/g;
/** A path in another project's repository, named after it (`pixijs/pixijs.com`, `pmndrs/use-cannon at ...`). */
const OTHER_REPOSITORY = /\b(pmndrs|pixijs|dimforge|mrdoob|phaserjs|vitejs|colyseus|geckosio|gafferongames|mas-bandwidth)\/[\w.-]+/;
/** Paths a text names that are not this repository's: a user's app, a build output, a package's own files. */
const ELSEWHERE = /^(\.\/)?(dist|node_modules|public|packs|my-game|out|build|\.\.\/steadyframe)\/|^(three|pixi\.js|phaser|react|@dimforge|@react-three|@babylonjs|@types|vite|comlink)\//;

/**
 * Paths and file names a text names that no file of the repository is.
 * @returns {string[]} findings, `file: what`
 */
export function missingPaths(entries, files, exampleNames) {
  const fileSet = new Set(files);
  const baseNames = new Set(files.map((path) => basename(path)));
  const found = [];
  for (const [path, text] of entries) {
    const here = dirname(path);
    for (const match of text.matchAll(PATH)) {
      const named = match[1];
      if (ELSEWHERE.test(named) || /^https?:/.test(named)) continue;
      if (OTHER_REPOSITORY.test(text.slice(Math.max(0, match.index - 200), match.index))) continue;
      const clean = named.replace(/^\.\//, '');
      const besides = normalize(join(here, named));
      // a page made at build from a package's README (site/scripts/generate.mjs: guides/parts/<name>.md)
      const part = /(?:^|\/)parts\/([\w-]+)\.md$/.exec(besides);
      if (part !== null && path.startsWith('site/') && fileSet.has(`packages/${part[1]}/README.md`)) continue;
      // a built example (`./sim.worker.js` is `// sim.worker.ts` compiled)
      const source = basename(clean).replace(/\.m?js$/, '.ts');
      const ok = fileSet.has(clean) || fileSet.has(besides) || files.some((file) => file.endsWith(`/${clean}`)) || exampleNames.has(basename(clean)) || exampleNames.has(source);
      if (!ok) found.push(`${path}: ${named} (no such file)`);
    }
    for (const match of text.matchAll(BARE)) {
      const name = match[1];
      if (!baseNames.has(name) && !exampleNames.has(name)) found.push(`${path}: ${name} (no file of that name)`);
    }
  }
  return found;
}

/**
 * The exported names of each public entry point, by its import specifier ('steadyframe/worker' -> names), read
 * with TypeScript's classic compiler API (5.9, `typescript-classic`: TypeScript 7 has none).
 * @returns {Map<string, Set<string>>}
 */
export function publicExports() {
  const require = createRequire(join(ROOT, 'package.json'));
  const ts = require('typescript-classic');
  const files = ENTRY_POINTS.map(({ file }) => join(ROOT, file));
  const program = ts.createProgram(files, { allowImportingTsExtensions: true, noEmit: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, jsx: ts.JsxEmit.ReactJSX, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const out = new Map();
  for (const { specifier, file } of ENTRY_POINTS) {
    const source = program.getSourceFile(join(ROOT, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    out.set(specifier, new Set(symbol ? checker.getExportsOfModule(symbol).map((s) => s.getName()) : []));
  }
  return out;
}

/** Every word of the packages' and apps' sources and tests: a member or local name a text may mention. */
export function sourceWords(files) {
  const words = new Set();
  for (const path of files) {
    if (!/^(packages|apps|scripts)\/.+\.(ts|tsx|mjs|js)$/.test(path) && !/^packages\/runtime\/vite\/index\.d\.ts$/.test(path)) continue;
    for (const match of readFileSync(join(ROOT, path), 'utf8').matchAll(/[A-Za-z_$][\w$]*/g)) words.add(match[0]);
  }
  return words;
}

/**
 * The libraries the docs talk about besides ours: every word of their type declarations (the DOM's, Rapier's),
 * so that prose naming their API (`RigidBodyType.SoftFrame`, `transferControlToOffscreen`) is checked too.
 */
const LIBRARY_DECLARATIONS = [
  'node_modules/typescript-classic/lib/lib.dom.d.ts',
  'node_modules/typescript-classic/lib/lib.webworker.d.ts',
  'node_modules/@dimforge/rapier3d-compat/dist',
  'node_modules/@dimforge/rapier3d-compat/dist/pipeline',
  'node_modules/@dimforge/rapier3d-compat/dist/dynamics',
  'node_modules/@dimforge/rapier3d-compat/dist/geometry',
  'node_modules/@dimforge/rapier3d-compat/dist/control',
];
/** Names in the docs that are neither code of ours nor of a declared library, each with why it stands. */
export const OTHER_NAMES = new Map([
  ['WebKitWebProcess', "WebKitGTK's web-content process (site/reference/compatibility.md)"],
  // three.js's node system and GLSL, as docs/webgpu.md reads them in three's sources ("Why not on the WebGL 2 backend")
  ['StorageBufferNode', "three.js's node for a storage buffer (three/src/nodes/accessors/StorageBufferNode.js)"],
  ['setPBO', "three.js's StorageBufferNode method that makes the buffer a texture on WebGL 2"],
  ['DataTexture', "three.js's texture over an array"],
  ['texelFetch', "GLSL's integer-indexed texture read"],
  ['getShaderAsync', "three.js's renderer.debug call that returns the generated shader"],
  ['maxStorageBuffersPerShaderStage', "a WebGPU device limit (GPUSupportedLimits)"],
]);

/** The words of the libraries' declarations (LIBRARY_DECLARATIONS: files, or folders of .d.ts files). */
export function libraryWords() {
  const words = new Set();
  const read = (path) => {
    const full = join(ROOT, path);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full)) if (name.endsWith('.d.ts')) read(join(path, name));
      return;
    }
    for (const match of readFileSync(full, 'utf8').matchAll(/[A-Za-z_$][\w$]*/g)) words.add(match[0]);
  };
  for (const path of LIBRARY_DECLARATIONS) read(path);
  return words;
}

/** Imports from the packages in a text's code blocks whose names the entry point does not export. */
export function missingImports(entries, exportsOf) {
  const found = [];
  for (const [path, text, kind] of entries) {
    if (kind !== 'doc') continue;
    for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'((?:steadyframe|@steadyframe\/[\w-]+)(?:\/[\w-]+)?)'/g)) {
      const names = exportsOf.get(match[2]);
      if (names === undefined) {
        found.push(`${path}: '${match[2]}' (no such entry point)`);
        continue;
      }
      for (const part of match[1].split(',')) {
        const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
        if (name !== '' && !names.has(name)) found.push(`${path}: ${name} from '${match[2]}' (not exported)`);
      }
    }
  }
  return found;
}

/**
 * API names in prose: each code span that reads like a call or a member path (`createRuntime(...)`,
 * `runtime.frameTime`, `stats().frameClock.outsideFrames`); every camelCase word in it must be an export or a
 * word of the sources. Plain English in code spans (`'shared'`, `none`) has no camelCase word and is skipped.
 */
export function missingNames(entries, known) {
  const found = [];
  for (const [path, text] of entries) {
    const prose = text.replace(/```[\s\S]*?```/g, '');
    for (const match of prose.matchAll(/`([^`\n]+)`/g)) {
      const span = match[1];
      if (!/^[A-Za-z_$][\w$]*(\(|\.|<|$)/.test(span) || /^(https?|npm|npx|node|pnpm|git)\b/.test(span)) continue;
      const head = span.replace(/\([^()]*\)/g, '()').split(/[\s=:,{[]/)[0]; // a call's arguments are not names
      for (const word of head.match(/[A-Za-z_$][\w$]*/g) ?? []) {
        if (!/^[a-z]+[A-Z]|^[A-Z][a-z]+[A-Z]/.test(word)) continue; // camelCase or PascalCase with a hump: an API name
        if (!known.has(word)) found.push(`${path}: ${word} (in \`${span}\`)`);
      }
    }
  }
  return [...new Set(found)];
}

/** A file's section titles: its headings, and its paragraphs' bold leads (`**The frame clock.** ...`). */
function headings(text) {
  const heads = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]);
  const leads = [...text.matchAll(/^\*\*([^*]+)\*\*/gm)].map((m) => m[1]);
  return [...heads, ...leads].map((title) => title.replaceAll('`', '').trim());
}

/** Sections named by title (the README's or ARCHITECTURE's, by a quoted title) that the file has no heading or bold lead for. */
export function missingSections(entries) {
  const heads = { README: headings(readFileSync(join(ROOT, 'README.md'), 'utf8')), ARCHITECTURE: headings(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8')) };
  const found = [];
  for (const [path, text] of entries) {
    const flat = text.replace(/\s*\n\s*(\*\s*|\/\/\s*)?/g, ' ');
    for (const match of flat.matchAll(/\b(README|ARCHITECTURE)(?:\.md)?(?:'s|,)? "([^"]+)"/g)) {
      const [, file, title] = match;
      if (path.startsWith('packages/') && path.endsWith('README.md') && file === 'README') continue; // its own README
      if (!heads[file].some((heading) => heading === title || heading.startsWith(`${title}:`) || heading.startsWith(`${title} (`) || heading.startsWith(title))) found.push(`${path}: ${file}, "${title}" (no such heading)`);
    }
  }
  return [...new Set(found)];
}

/** Everything the check finds, by kind. */
export function findRot() {
  const files = repositoryFiles();
  const entries = sources(files);
  const exampleNames = new Set();
  for (const page of siteExamples().values()) for (const name of page.keys()) exampleNames.add(name);
  for (const path of files.filter((p) => p.endsWith('README.md'))) for (const section of readmeExamples(readFileSync(join(ROOT, path), 'utf8')).values()) for (const name of section.keys()) exampleNames.add(name);
  const exportsOf = publicExports();
  const known = sourceWords(files);
  for (const word of libraryWords()) known.add(word);
  for (const word of OTHER_NAMES.keys()) known.add(word);
  for (const names of exportsOf.values()) for (const name of names) known.add(name);
  return {
    paths: missingPaths(entries, files, exampleNames),
    imports: missingImports(entries, exportsOf),
    names: missingNames(entries.filter(([, , kind]) => kind === 'doc'), known),
    sections: missingSections(entries),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rot = findRot();
  for (const [kind, found] of Object.entries(rot)) console.log(`${kind}: ${found.length}\n${found.join('\n')}\n`);
}
