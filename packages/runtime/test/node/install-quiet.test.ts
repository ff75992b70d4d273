/**
 * Every npm script installs the workspace first (scripts/bootstrap.mjs), so whatever pnpm's install prints lands
 * on every `npm run`. A dependency awaiting a permission decision (phaser and pixi.js ship agent skills) makes it
 * print "Agent skills awaiting approval" each time: pnpm-workspace.yaml's `permissions` records the decision, and
 * this asks pnpm that nothing is left awaiting one.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper shared with the scripts; it has no type declarations.
import { pnpm } from '../../../../scripts/bootstrap.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

it('no dependency awaits a permission decision, so installs (and so every npm script) print no approval prompt', () => {
  const [command, ...prefix] = pnpm() as string[];
  const result = spawnSync(command as string, [...prefix, 'permissions', 'list'], { cwd: ROOT, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout).not.toMatch(/awaiting approval/i);
  // the decisions themselves are listed: the command answered about this workspace
  expect(result.stdout).toMatch(/Denied:[\s\S]*phaser\s+skills/);
}, 60_000);
