// The API reference: TypeDoc reads the doc comments of every public entry point (the published exports maps of
// `steadyframe` and the bindings) and writes one markdown page per function, type and constant into site/api/
// (typedoc-plugin-markdown), with a sidebar for VitePress (typedoc-vitepress-theme). Run by site/scripts/build.mjs.
import { register } from 'node:module';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENTRY_POINTS } from './entry-points.mjs';

const SITE = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(SITE, '..');
const require = createRequire(join(ROOT, 'package.json'));
register('./typescript-classic.mjs', import.meta.url, { data: { url: pathToFileURL(require.resolve('typescript-classic')).href } });


/** Writes site/api/; resolves with the number of pages' worth of reflections, throws when TypeDoc fails. */
export async function buildApi() {
  const { Application, LogLevel } = await import('typedoc');
  const app = await Application.bootstrapWithPlugins({
    entryPoints: ENTRY_POINTS.map(({ file }) => join(ROOT, file)),
    entryPointStrategy: 'resolve',
    tsconfig: join(SITE, 'tsconfig.api.json'),
    plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
    out: join(SITE, 'api'),
    docsRoot: SITE,
    name: 'API reference',
    // the workspace's own tsc (TypeScript 7) type-checks these sources; TypeDoc only reads them
    skipErrorChecking: true,
    excludePrivate: true,
    excludeInternal: true,
    readme: 'none',
    entryFileName: 'index',
    hidePageHeader: true,
    hideBreadcrumbs: false,
    useCodeBlocks: true,
    // a doc comment's `<name>` is prose, not a tag for VitePress's Vue compiler
    sanitizeComments: true,
    parametersFormat: 'table',
    interfacePropertiesFormat: 'table',
    typeDeclarationFormat: 'table',
    sort: ['kind', 'instance-first', 'alphabetical-ignoring-documents'],
    githubPages: false,
    disableSources: true,
    logLevel: LogLevel.Warn,
    validation: { notExported: false, invalidLink: false, rewrittenLink: false },
  });
  const project = await app.convert();
  if (project === undefined) throw new Error('steadyframe docs: TypeDoc could not convert the entry points');
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error('steadyframe docs: TypeDoc reported errors (above)');
  return project;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildApi();
