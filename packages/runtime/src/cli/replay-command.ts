/**
 * `npx steadyframe replay session.sfr --worker sim.worker.mjs` (cli/steadyframe.ts runs it): a recording replayed
 * headless in Node through the built worker module it was recorded with (`replayRecording`), its report said
 * in words. Exit code: 0 every tick the same, 1 a divergence or a step that threw in one run only, 2 a misuse
 * (the message says what to type).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReplayReport } from '../contracts/remote.ts';
import { replayRecording } from '../node/replay.ts';

export const USAGE = `usage: steadyframe replay <recording.sfr> --worker <built worker module> [--json]

  Replays a recording (runtime.stopRecording()'s bytes, saved) headless, as fast as the CPU goes, through the
  simulation's worker module built for Node (plain JavaScript, one file), checking every tick's state hash.
  --json   prints the report as JSON instead of words
  Exit code: 0 every tick as recorded, 1 a divergence, 2 a misuse.`;

export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

/** Runs the command line `args` (what follows `steadyframe`); returns the exit code. */
export async function runCli(args: readonly string[], out: CliOutput): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    out.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'replay') {
    out.error(`steadyframe: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  let file: string | undefined;
  let worker: string | undefined;
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--worker') worker = rest[++i];
    else if (arg.startsWith('--worker=')) worker = arg.slice('--worker='.length);
    else if (arg === '--json') json = true;
    else if (arg.startsWith('-')) {
      out.error(`steadyframe: unknown option "${arg}"\n\n${USAGE}`);
      return 2;
    } else if (file === undefined) file = arg;
    else {
      out.error(`steadyframe: one recording at a time (got "${file}" and "${arg}")`);
      return 2;
    }
  }
  if (file === undefined || worker === undefined || worker === '') {
    out.error(`steadyframe: replay needs ${file === undefined ? 'a recording file' : 'the worker module (--worker <file>)'}\n\n${USAGE}`);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    out.error(`steadyframe: cannot read the recording "${file}": ${(error as Error).message}`);
    return 2;
  }
  const workerUrl = pathToFileURL(isAbsolute(worker) ? worker : resolve(worker));
  let report: ReplayReport;
  try {
    report = await replayRecording(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { worker: workerUrl });
  } catch (error) {
    out.error(`steadyframe: ${(error as Error).message.replace(/^steadyframe: /, '')}`);
    return 2;
  }
  if (json) out.log(JSON.stringify(report, null, 2));
  else for (const line of describeReport(report, file)) out.log(line);
  return report.matched ? 0 : 1;
}

/** The report in words, a line each. */
export function describeReport(report: ReplayReport, file: string): string[] {
  const lines = [
    report.matched
      ? `${file}: ${report.ticks} ticks replayed in ${report.ms.toFixed(0)} ms, every one as recorded`
      : `${file}: DIVERGED: ${report.mismatches} of ${report.ticks} ticks replayed differ (${report.ms.toFixed(0)} ms)`,
  ];
  const first = report.firstDivergence;
  if (first !== null) lines.push(`  first at tick ${first.tick}: state hash ${first.replayedHash}, recorded ${first.recordedHash}`);
  const d = report.difference;
  if (d !== null) {
    const who = d.entity < 0 ? 'the entity count' : `entity ${d.entity}, ${d.field}[${d.component}]`;
    lines.push(`  first value that differs, at the keyframe after tick ${d.tick}: ${who} is ${d.replayed}, recorded ${d.recorded}`);
  }
  if (report.faults.unexpected !== null) lines.push(`  ${report.faults.unexpected}`);
  for (const [name, trap] of Object.entries(report.nondeterminism)) {
    if (trap.calls > 0) lines.push(`  ${name} called ${trap.calls} times, first at tick ${trap.firstTick}: use tick.random() and tick.at / tick.time instead`);
  }
  if (!report.complete && report.faults.unexpected === null) lines.push('  the replay stopped before the recording\'s end');
  return lines;
}
