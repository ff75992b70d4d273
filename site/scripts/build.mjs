// `npm run docs:build`: the whole site in one command.
//
//   site/scripts/api.mjs       TypeDoc ─▶ site/api/*.md (one page per function and type) + its sidebar
//   site/.vitepress/config.ts  generate() ─▶ site/internals/, site/benchmarks/, site/guides/parts/, images
//   vitepress build            ─▶ site/.vitepress/dist (a dead link fails the build)
//   site/scripts/check-links.mjs every internal link and #anchor of the built pages resolves
//
// `npm run docs` serves the same pages with VitePress's dev server (after the API step).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApi } from './api.mjs';
import { checkLinks } from './check-links.mjs';

const SITE = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(SITE, '..');
const mode = process.argv[2] ?? 'build';

await buildApi();
const vitepress = join(ROOT, 'node_modules', '.bin', 'vitepress');
if (mode === 'dev') {
  execFileSync(vitepress, ['dev', SITE, ...process.argv.slice(3)], { stdio: 'inherit' });
} else {
  execFileSync(vitepress, ['build', SITE], { stdio: 'inherit' });
  const problems = checkLinks(join(SITE, '.vitepress', 'dist'));
  if (problems.length > 0) {
    console.error(`steadyframe docs: ${problems.length} broken links in the built site:\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log('steadyframe docs: every internal link and anchor of the built site resolves');
}
