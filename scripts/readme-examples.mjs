// The README's examples: every ```ts block that begins with a `// name.ts` line, grouped by `## ` section.
// Used by the tests that type-check them and that build the three.js one from the packed tarballs.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const README = join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

/** @returns {Map<string, Map<string, string>>} section heading -> file name -> source */
export function readmeExamples(text = readFileSync(README, 'utf8')) {
  const out = new Map();
  let section = 'top';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (line.trim() !== '```ts') continue;
    const body = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) body.push(lines[i]);
    const name = /^\/\/ ([\w.-]+\.ts)\s*$/.exec(body[0] ?? '')?.[1];
    if (name === undefined) continue;
    if (!out.has(section)) out.set(section, new Map());
    out.get(section).set(name, body.join('\n'));
  }
  return out;
}
