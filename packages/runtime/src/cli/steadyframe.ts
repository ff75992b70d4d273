#!/usr/bin/env node
/** The `steadyframe` command (package.json's bin, built to dist/cli/steadyframe.js): see cli/replay-command.ts. */
import { runCli } from './replay-command.ts';

process.exitCode = await runCli(process.argv.slice(2), { log: (line) => console.log(line), error: (line) => console.error(line) });
