// The site's generated pages, made from the repository's own files so that each has one source:
//
//   ARCHITECTURE.md  ──split at each `## `──▶  site/internals/<slug>.md  (+ index.md: the title part)
//   docs/*.md        ──as they are─────────▶  site/benchmarks/<name>.md
//   docs/*.png       ──copied──────────────▶  site/public/images/
//   packages/<name>/README.md, from its first `## ` ──▶ site/guides/parts/<name>.md (included by the guides;
//                                                       not pages of their own: config.ts's srcExclude)
//
// A heading's anchor stays the one VitePress makes from its text, so ARCHITECTURE's own `(#anchor)` links (none
// today) would be rewritten to the page that holds them. Run by site/scripts/build.mjs before TypeDoc and VitePress.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SITE = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = join(SITE, '..');

/** VitePress's slug for a heading (its default `slugify`, enough for the headings these files use). */
export function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/**
 * Markdown written for GitHub and npm, made safe for VitePress, whose pages are Vue templates: a `<` that starts a
 * tag-like word in prose (`<name>`, `a <b`) becomes `&lt;`, and `{{` is shown as it is. Code spans and fenced
 * blocks are left alone (VitePress escapes those itself).
 * @param {string} text
 */
export function escapeForVue(text) {
  let fence = false;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s*```/.test(line);
      if (marker) fence = !fence;
      if (fence || marker) return line;
      return line
        .split(/(`[^`]*`)/)
        .map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!])/g, '&lt;').replaceAll('{{', '&#123;&#123;')))
        .join('');
    })
    .join('\n');
}

/**
 * ARCHITECTURE.md as pages: the part before the first `## ` is the index, each `## ` section a page (its
 * `###` sections with it). Returns [{ slug, title, text }] in the file's order.
 * @param {string} text
 */
export function splitArchitecture(text) {
  const pages = [];
  let current = { slug: 'index', title: 'Overview', lines: [] };
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    if (!fence && line.startsWith('## ')) {
      pages.push(current);
      const title = line.slice(3).trim();
      current = { slug: slugify(title), title, lines: [`# ${title}`] };
      continue;
    }
    if (!fence && current.slug === 'index' && line.startsWith('# ')) {
      current.lines.push('# Internals: the architecture');
      continue;
    }
    current.lines.push(line);
  }
  pages.push(current);
  return pages.map(({ slug, title, lines }) => ({ slug, title, text: lines.join('\n') }));
}

/** The benchmark reports: docs/*.md, each a page; returns [{ slug, title }]. */
export function benchmarkReports() {
  return readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(ROOT, 'docs', name), 'utf8');
      const title = /^# (.+)$/m.exec(text)?.[1] ?? name;
      return { slug: name.slice(0, -3), title, text };
    });
}

/** The bindings whose README's body (from its first `## `: their example, API and notes) a guide includes. */
export const PACKAGE_PARTS = ['react-three-fiber', 'phaser', 'babylon'];

/** A note on each generated page: where its text lives (edit that, not this). */
const from = (path) => `\n\n::: info Generated\nThis page is [\`${path}\`](https://github.com/steadyframe/steadyframe/blob/main/${path}) as it stands in the repository; edit it there.\n:::\n`;

/** Writes the generated pages; returns the sidebar items for them. */
export function generate() {
  const internals = join(SITE, 'internals');
  rmSync(internals, { recursive: true, force: true });
  mkdirSync(internals, { recursive: true });
  const architecture = splitArchitecture(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
  for (const page of architecture) {
    const [first, ...rest] = page.text.split('\n');
    writeFileSync(join(internals, `${page.slug}.md`), `${first}${from('ARCHITECTURE.md')}\n${escapeForVue(rest.join('\n'))}\n`);
  }
  const benchmarks = join(SITE, 'benchmarks');
  rmSync(benchmarks, { recursive: true, force: true });
  mkdirSync(benchmarks, { recursive: true });
  const reports = benchmarkReports();
  for (const report of reports) {
    const [first, ...rest] = report.text.split('\n');
    writeFileSync(join(benchmarks, `${report.slug}.md`), `${first}${from(`docs/${report.slug}.md`)}\n${escapeForVue(rest.join('\n'))}\n`);
  }
  const images = join(SITE, 'public', 'images');
  rmSync(images, { recursive: true, force: true });
  mkdirSync(images, { recursive: true });
  for (const name of readdirSync(join(ROOT, 'docs'))) {
    // the site's own screenshots (docs/site-*.png) are pictures of it, not in it
    if (name.endsWith('.png') && !name.startsWith('site-')) copyFileSync(join(ROOT, 'docs', name), join(images, name));
  }
  const parts = join(SITE, 'guides', 'parts');
  rmSync(parts, { recursive: true, force: true });
  mkdirSync(parts, { recursive: true });
  for (const name of PACKAGE_PARTS) {
    const text = readFileSync(join(ROOT, 'packages', name, 'README.md'), 'utf8');
    const start = text.indexOf('\n## ');
    writeFileSync(join(parts, `${name}.md`), escapeForVue(text.slice(start + 1)));
  }
  return {
    internals: architecture.map(({ slug, title }) => ({ text: title.replaceAll("`", ""), link: `/internals/${slug === 'index' ? '' : slug}` })),
    benchmarks: reports.map(({ slug, title }) => ({ text: title, link: `/benchmarks/${slug}` })),
  };
}
