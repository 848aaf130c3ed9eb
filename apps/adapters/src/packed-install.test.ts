/**
 * The packed tarballs install and run as published packages would: `pnpm pack`, manifests
 * checked, one `npm install` of the tarballs with the latest release of every SDK in a fresh
 * project and one call per adapter through its SDK, then `npx -p <tarballs> patchsmith-mcp` in a
 * fresh folder lists the tools. Needs the registry and the packages built (turbo builds
 * @patchsmith/mcp before this package's tests); without either it fails, saying why.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../tooling/scripts/pack-install-check.mjs', import.meta.url));

it('installs from the packed tarballs with the latest SDKs, calls each adapter, starts npx patchsmith-mcp', () => {
  const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', timeout: 900_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(
    /^pack-install check: \d+ tarballs ok; main, openai, openai-agents, anthropic, vercel, langchain called with ai@\S+, openai@\S+, @openai\/agents@\S+, @anthropic-ai\/sdk@\S+, @langchain\/core@\S+; npx patchsmith-mcp lists apply_patch, edit, log, undo, view\n$/,
  );
}, 900_000);
