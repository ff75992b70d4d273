// `npm start`: sets up a fresh machine (pnpm, dependencies) and serves the demo, cross-origin isolated.
import { installDependencies, pnpm, run } from './bootstrap.mjs';

installDependencies();
const [command, ...prefix] = pnpm();
console.log('steadyframe: serving the demo at http://127.0.0.1:5173/ (Ctrl-C stops it)');
run(command, [...prefix, '--filter', '@steadyframe/demo', 'exec', 'vite', ...process.argv.slice(2)]);
