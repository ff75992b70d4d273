// `npm run physics`: sets up a fresh machine (pnpm, dependencies) and serves the Rapier example, cross-origin
// isolated, at the URL it prints (its port 5175, or the next free one).
import { installDependencies } from './bootstrap.mjs';
import { serveApp } from './serve.mjs';

installDependencies();
await serveApp('physics', 'dev', 'serving the physics example', process.argv.slice(2));
