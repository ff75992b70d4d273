// `prepack` of every package: refuses a packer that would ship the workspace's package.json as it is, then
// clears dist/ so no stale file from an earlier build lands in the tarball (tsc builds it next).
// pnpm rewrites `catalog:` and `workspace:` versions to real ones and swaps in `publishConfig.exports` (dist/)
// when it packs; `npm pack` does neither, and its tarball would point at `./src/*.ts` and depend on "catalog:".
import { rmSync } from 'node:fs';

const agent = process.env.npm_config_user_agent ?? '';
if (!agent.startsWith('pnpm/')) {
  const packer = agent.split(' ')[0] || 'this packer';
  console.error(
    `steadyframe: refusing to pack with ${packer}: this package.json has "catalog:" and "workspace:" versions ` +
      'and a source exports map that only pnpm rewrites when it packs. Run `npm run pack` at the repository root ' +
      '(it uses pnpm, through npx if needed) and install the tarballs it writes to packs/.',
  );
  process.exit(1);
}
rmSync('dist', { recursive: true, force: true });
