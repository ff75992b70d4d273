// `npm start`: sets up a fresh machine (pnpm, dependencies) and serves the demo, cross-origin isolated, at the
// URL it prints (its port 5173, or the next free one).
import { installDependencies } from './bootstrap.mjs';
import { serveApp } from './serve.mjs';

installDependencies();
await serveApp('demo', 'dev', 'serving the demo', process.argv.slice(2));
