// `npm run physics`: sets up a fresh machine (pnpm, dependencies) and serves the Rapier example, cross-origin isolated.
import { installDependencies, pnpm, run } from './bootstrap.mjs';

installDependencies();
const [command, ...prefix] = pnpm();
console.log('steadyframe: serving the physics example at http://127.0.0.1:5175/ (Ctrl-C stops it)');
run(command, [...prefix, '--filter', '@steadyframe/physics', 'exec', 'vite', ...process.argv.slice(2)]);
