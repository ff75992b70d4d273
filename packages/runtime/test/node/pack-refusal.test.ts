/**
 * `npm pack` in a package folder would ship the workspace's package.json as it is ("catalog:" versions, exports
 * pointing at src/*.ts): the prepack check refuses it, naming the command that packs correctly. (The tarballs
 * `npm run pack` makes are checked file by file in test/e2e/packed.e2e.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const packages = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

it.each(['runtime', 'three', 'pixi', 'rapier', 'react-three-fiber', 'phaser'])('npm pack in packages/%s refuses with a message naming npm run pack', (name) => {
  // npm reads npm_config_* from the environment: drop the one pnpm set for this test run
  const { npm_config_user_agent: _, ...env } = process.env;
  const result = spawnSync('npm', ['pack', '--dry-run'], { cwd: join(packages, name), env, encoding: 'utf8' });
  expect(result.status).not.toBe(0);
  expect(result.stderr).toMatch(/steadyframe: refusing to pack with npm\/[\d.]+: .*"catalog:" and "workspace:" versions/);
  expect(result.stderr).toContain('Run `npm run pack` at the repository root');
});
