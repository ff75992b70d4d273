/**
 * The READMEs' install lines install what the packages need: each `npm install` naming a `@steadyframe/*` adapter
 * names its required peers too (or an install line above it in the same README did), since npm answers E404 on a
 * peer that is not published yet instead of resolving it; and each of the docs site's guides to an adapter
 * (site/guides/<adapter>.md) says how to install it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const ADAPTERS = ['three', 'pixi', 'rapier', 'react-three-fiber', 'phaser', 'babylon'];
const GUIDES = ADAPTERS.map((name) => `site/guides/${name}.md`);
const READMES = ['README.md', 'packages/runtime/README.md', ...ADAPTERS.map((name) => `packages/${name}/README.md`), 'site/start.md', ...GUIDES];

/** `@steadyframe/x` -> the peers it needs (the optional ones left out). */
const requiredPeers = new Map(
  ADAPTERS.map((dir) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter((peer) => manifest.peerDependencies && !manifest.peerDependenciesMeta?.[peer]?.optional);
    return [manifest.name, peers] as const;
  }),
);

/** The package names of an `npm install` line (versions dropped), its flags and comment left out. */
function installed(line: string): string[] {
  return line
    .replace(/#.*/, '')
    .trim()
    .split(/\s+/)
    .slice(2)
    .filter((word) => !word.startsWith('-'))
    .map((word) => word.replace(/(.)@.*$/, '$1'));
}

it.each(READMES)('%s: every install line naming an adapter installs its required peers', (readme) => {
  const lines = readFileSync(join(ROOT, readme), 'utf8').split('\n');
  // the root README's examples all go into the app its "Use it" made, with steadyframe installed
  const have = new Set<string>();
  const missing: string[] = [];
  for (const line of lines.filter((l) => /^npm install /.test(l))) {
    const names = installed(line);
    for (const name of names) have.add(name);
    for (const name of names) for (const peer of requiredPeers.get(name) ?? []) if (!have.has(peer)) missing.push(`"${line}": ${name} needs ${peer}`);
  }
  expect(missing).toEqual([]);
});

it("each adapter's guide on the docs site has its install line", () => {
  const missing = ADAPTERS.filter((name) => {
    const lines = readFileSync(join(ROOT, 'site', 'guides', `${name}.md`), 'utf8').split('\n');
    return !lines.some((l) => /^npm install /.test(l) && installed(l).includes(`@steadyframe/${name}`));
  });
  expect(missing).toEqual([]);
});

it("no README's shell lines run pnpm: the npm scripts do, installing it and the dependencies first (scripts/bootstrap.mjs)", () => {
  const apps = ['arena', 'babylon-instances', 'demo', 'multiplayer', 'phaser-balls', 'phaser-platforms', 'physics', 'r3f-bodies'].map((name) => `apps/${name}/README.md`);
  const bare = [...READMES, ...apps].flatMap((readme) =>
    readFileSync(join(ROOT, readme), 'utf8')
      .split('\n')
      .filter((line) => /^(npx\s+)?pnpm\b/.test(line))
      .map((line) => `${readme}: ${line}`),
  );
  expect(bare).toEqual([]);
});
