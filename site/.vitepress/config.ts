// The docs site: VitePress over site/. Hand-written pages (start, concepts, guides, serving, reference) sit beside
// the generated ones (site/scripts/generate.mjs: internals from ARCHITECTURE.md, benchmarks from docs/*.md;
// site/scripts/api.mjs: the API reference from the doc comments). `npm run docs:build` makes them all.
import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, type DefaultTheme } from 'vitepress';
// @ts-expect-error: a plain .mjs helper of the site's scripts; it has no type declarations.
import { generate } from '../scripts/generate.mjs';

const generated = generate() as { internals: DefaultTheme.SidebarItem[]; benchmarks: DefaultTheme.SidebarItem[] };

/** The order of the API's modules in the sidebar: the runtime's entries as a game meets them, then the bindings. */
const MODULES = ['steadyframe', 'steadyframe/worker', 'steadyframe/render-worker', 'steadyframe/node', 'steadyframe/network', 'steadyframe/vite', 'steadyframe/adapter'];

/**
 * The API reference's sidebars: one per module, each listing that module's pages under a list of every module.
 * (One sidebar of every module's 400 pages, rendered into each of them, made each page 250 KB and the build slow.)
 */
function apiSidebars(): Record<string, DefaultTheme.SidebarItem[]> {
  const file = new URL('../api/typedoc-sidebar.json', import.meta.url);
  if (!existsSync(file)) return {};
  const items = JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[];
  const rank = (text = '') => (MODULES.includes(text) ? MODULES.indexOf(text) : MODULES.length);
  items.sort((a, b) => rank(a.text) - rank(b.text) || (a.text ?? '').localeCompare(b.text ?? ''));
  const modules: DefaultTheme.SidebarItem = { text: 'Modules', items: items.map(({ text, link }): DefaultTheme.SidebarItem => ({ ...(text === undefined ? {} : { text }), ...(link === undefined ? {} : { link }) })) };
  const out: Record<string, DefaultTheme.SidebarItem[]> = { '/api/': [{ text: 'API reference', link: '/api/' }, modules] };
  for (const item of items) {
    if (item.link === undefined) continue;
    out[item.link] = [{ text: 'API reference', link: '/api/' }, { ...item, collapsed: false }, { ...modules, collapsed: true }];
  }
  return out;
}

const guides: DefaultTheme.SidebarItem[] = [
  { text: 'three.js', link: '/guides/three' },
  { text: 'React Three Fiber', link: '/guides/react-three-fiber' },
  { text: 'PixiJS', link: '/guides/pixi' },
  { text: 'Phaser', link: '/guides/phaser' },
  { text: 'Babylon.js', link: '/guides/babylon' },
  { text: 'Rapier', link: '/guides/rapier' },
  { text: 'Render worker', link: '/guides/render-worker' },
  { text: 'Events and game state', link: '/guides/events' },
  { text: 'Entity tables', link: '/guides/entity-tables' },
  { text: 'Private fields', link: '/guides/private-fields' },
  { text: 'Headless in Node', link: '/guides/node' },
  { text: 'Multiplayer', link: '/guides/multiplayer' },
  { text: 'Rooms on Colyseus', link: '/guides/colyseus' },
  { text: 'Record and replay', link: '/guides/record-and-replay' },
];

export default defineConfig({
  title: 'steadyframe',
  description: 'Fixed-tick simulation in a Web Worker, smooth interpolated motion on the main thread.',
  lang: 'en',
  cleanUrls: true,
  // every link is checked at build (a dead one fails it); the dev servers' own addresses are not pages of the site
  ignoreDeadLinks: 'localhostLinks',
  lastUpdated: false,
  // the package READMEs' bodies the guides include (site/scripts/generate.mjs)
  srcExclude: ['guides/parts/**'],
  // the pages' bundles unminified: the build in half the time (the site is a few MB of markdown either way)
  vite: { build: { minify: false, reportCompressedSize: false, chunkSizeWarningLimit: 4096 } },
  themeConfig: {
    nav: [
      { text: 'Start', link: '/start' },
      { text: 'Concepts', link: '/concepts' },
      { text: 'Guides', link: '/guides/three' },
      { text: 'API', link: '/api/' },
      { text: 'Internals', link: '/internals/' },
      { text: 'Benchmarks', link: '/benchmarks/benchmarks' },
    ],
    sidebar: {
      ...apiSidebars(),
      '/internals/': [{ text: 'Internals (ARCHITECTURE.md)', items: generated.internals }],
      '/benchmarks/': [{ text: 'Benchmark reports (docs/)', items: generated.benchmarks }],
      '/': [
        { text: 'Start', items: [
          { text: 'Start here', link: '/start' },
          { text: 'Concepts', link: '/concepts' },
          { text: 'Timing: frames, timestamps, pacing', link: '/timing' },
          { text: 'Serving it', link: '/serving' },
        ] },
        { text: 'Guides', items: guides },
        { text: 'Reference', items: [
          { text: 'API at a glance', link: '/reference/api' },
          { text: 'API reference (generated)', link: '/api/' },
          { text: 'Compatibility', link: '/reference/compatibility' },
          { text: 'Troubleshooting', link: '/reference/troubleshooting' },
        ] },
        { text: 'The repository', items: [
          { text: 'Commands and files', link: '/repository/commands' },
          { text: 'Tests', link: '/repository/tests' },
          { text: 'Internals', link: '/internals/' },
          { text: 'Benchmarks', link: '/benchmarks/benchmarks' },
        ] },
      ],
    },
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: 'github', link: 'https://github.com/steadyframe/steadyframe' }],
  },
});
