/**
 * The packed tarballs install and run as published packages would: `pnpm pack`, manifests
 * checked, then `npx -p <tarballs> patchsmith-mcp` in a fresh folder lists the tools. Skipped
 * (and said so) only when the npm registry is unreachable. Needs the packages built.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../tooling/scripts/pack-install-check.mjs', import.meta.url));
const EXIT_SKIPPED = 3;

it('installs from the packed tarballs and starts with npx patchsmith-mcp in a fresh folder', (context) => {
  const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', timeout: 600_000 });
  if (run.status === EXIT_SKIPPED) {
    console.log(run.stdout);
    context.skip();
  }
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(
    /^pack-install check: \d+ tarballs ok; npx patchsmith-mcp lists apply_patch, edit, log, undo, view\n$/,
  );
}, 600_000);
