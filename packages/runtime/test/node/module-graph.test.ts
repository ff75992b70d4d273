/**
 * The shape of the runtime's source, held as a test (ARCHITECTURE.md, "Ports"): the module graph of
 * `packages/runtime/src`, read from every import and re-export, `import type` included.
 *
 * - no import circle, type imports included;
 * - the contracts (`src/contracts/`) are types only and import nothing but contracts and core modules;
 * - a transport's implementation (`src/transports/<kind>/`) is imported only by the registry (each side's
 *   halves) and the library list beside it (the whole transports), and from inside its own folder: those two are
 *   where a transport is added;
 * - no source file grows past MAX_LINES (one concept a file).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const MAX_LINES = 400;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });
}

interface Edge {
  readonly to: string;
  readonly typeOnly: boolean;
}

/** Every relative import and re-export of `file` (static or dynamic), resolved to a path under src. */
function importsOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  const pattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[3] ?? match[4]!;
    edges.push({ to: resolve(dirname(file), specifier), typeOnly: match[2] !== undefined });
  }
  return edges;
}

const graph = new Map<string, Edge[]>();
const lines = new Map<string, number>();
for (const file of files(SRC)) {
  const text = readFileSync(file, 'utf8');
  graph.set(file, importsOf(file, text));
  lines.set(file, text.split('\n').length);
}
const name = (file: string): string => relative(SRC, file);

describe('the module graph of packages/runtime/src', () => {
  it('reads every file and resolves every import to one of them', () => {
    expect(graph.size).toBeGreaterThan(60);
    for (const [file, edges] of graph) {
      for (const edge of edges) {
        if (!graph.has(edge.to)) throw new Error(`${name(file)} imports ${name(edge.to)}, which is not a source file`);
      }
    }
  });

  it('has no import circle, type imports included', () => {
    // Tarjan's strongly connected components: any component of more than one file (or a self-import) is a circle
    let index = 0;
    const indices = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (file: string): void => {
      indices.set(file, index);
      low.set(file, index++);
      stack.push(file);
      onStack.add(file);
      for (const { to } of graph.get(file) ?? []) {
        if (!indices.has(to)) {
          visit(to);
          low.set(file, Math.min(low.get(file)!, low.get(to)!));
        } else if (onStack.has(to)) {
          low.set(file, Math.min(low.get(file)!, indices.get(to)!));
        }
      }
      if (low.get(file) === indices.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== file);
        if (component.length > 1 || (graph.get(file) ?? []).some((e) => e.to === file)) circles.push(component.map(name).sort());
      }
    };
    for (const file of graph.keys()) if (!indices.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it('keeps the contracts types only, importing contracts and core alone', () => {
    for (const [file, edges] of graph) {
      if (!name(file).startsWith('contracts/')) continue;
      const text = readFileSync(file, 'utf8');
      // nothing but types: no value declarations, no value imports
      expect(text, name(file)).not.toMatch(/^export (const|let|var|function|class|enum)\b/m);
      for (const edge of edges) {
        expect(edge.typeOnly, `${name(file)} imports ${name(edge.to)} as a value`).toBe(true);
        expect(name(edge.to), `${name(file)} imports ${name(edge.to)}`).toMatch(/^(contracts|core)\//);
      }
    }
  });

  it('imports a transport implementation only through the registry', () => {
    for (const [file, edges] of graph) {
      for (const edge of edges) {
        const target = name(edge.to);
        const folder = /^transports\/([^/]+)\//.exec(target)?.[1];
        if (folder === undefined) continue;
        const from = name(file);
        const allowed = from === 'transports/registry.ts' || from === 'transports/library.ts' || from.startsWith(`transports/${folder}/`) || edge.typeOnly;
        expect(allowed, `${from} imports ${target}: add transports through transports/registry.ts and transports/library.ts`).toBe(true);
      }
    }
  });

  it("is what ARCHITECTURE.md's module table says: every file there, and none that is gone", () => {
    const text = readFileSync(resolve(SRC, '../../../ARCHITECTURE.md'), 'utf8');
    const section = text.slice(text.indexOf('## Modules'), text.indexOf('## Ports'));
    const listed = new Set([...section.matchAll(/^\| `([a-z0-9-]+(?:\/[a-z0-9-]+)*\.ts)` \|/gm)].map((m) => m[1]!));
    const actual = new Set([...graph.keys()].map(name).filter((file) => file !== 'index.ts'));
    expect([...actual].filter((file) => !listed.has(file)), 'files the table leaves out').toEqual([]);
    expect([...listed].filter((file) => !actual.has(file)), 'files the table names that are gone').toEqual([]);
  });

  it(`keeps every file under ${MAX_LINES} lines`, () => {
    const long = [...lines].filter(([, count]) => count > MAX_LINES).map(([file, count]) => `${name(file)}: ${count}`);
    expect(long).toEqual([]);
  });
});
