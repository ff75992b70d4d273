// Every internal link of the built site resolves: the page (or file) it names exists, and so does the anchor,
// as an `id` on that page. VitePress's own dead-link check (at build) sees pages only, not anchors.
//
//   href="/guides/three#tables"  ─▶ dist/guides/three.html has id="tables"?
//   href="#alpha"                ─▶ this page has id="alpha"?
//   src="/diagrams/timeline.svg" ─▶ dist/diagrams/timeline.svg exists?
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** @param {string} dir @returns {string[]} */
function htmlFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...htmlFiles(path));
    else if (entry.name.endsWith('.html')) out.push(path);
  }
  return out;
}

/** The file a site path names under `dist` (clean URLs: `/start` is start.html, `/api/` the api folder's index.html), or null. */
function fileFor(dist, path) {
  const candidates = path.endsWith('/') ? [join(dist, path, 'index.html')] : [join(dist, path), join(dist, `${path}.html`), join(dist, path, 'index.html')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
}

/** The `id`s of a page's elements. */
const idsCache = new Map();
function idsOf(file) {
  if (!idsCache.has(file)) idsCache.set(file, new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => decodeEntities(m[1]))));
  return idsCache.get(file);
}

const decodeEntities = (text) => text.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');

/**
 * The built site's broken internal links, as `page: link (why)` lines; none when all resolve.
 * @param {string} dist the built site (site/.vitepress/dist)
 * @returns {string[]}
 */
export function checkLinks(dist) {
  const problems = [];
  for (const file of htmlFiles(dist)) {
    const page = relative(dist, file);
    const html = readFileSync(file, 'utf8');
    for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const link = decodeEntities(match[1]);
      if (/^(https?:|mailto:|data:|javascript:)/.test(link) || link === '') continue;
      const [rawPath, anchor] = link.split('#');
      let target = file;
      if (rawPath !== '') {
        const path = decodeURIComponent(rawPath.split('?')[0]);
        const absolute = path.startsWith('/') ? path : `/${relative(dist, resolve(dirname(file), path))}`;
        target = fileFor(dist, absolute);
        if (target === null) {
          problems.push(`${page}: ${link} (no such page or file)`);
          continue;
        }
      }
      if (anchor !== undefined && anchor !== '' && target.endsWith('.html') && !idsOf(target).has(decodeURIComponent(anchor))) {
        problems.push(`${page}: ${link} (no #${anchor} on ${relative(dist, target)})`);
      }
    }
  }
  return [...new Set(problems)];
}
