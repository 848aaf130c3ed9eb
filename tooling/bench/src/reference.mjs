// The reference `apply_patch` is the Rust binary inside the npm package @openai/codex. It is
// installed on demand into .cache/codex/ (never a dependency of a package) and run under the
// name `apply_patch`, which is how the binary knows to act as the patch tool.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export const CODEX_VERSION = '0.171.0';

function findBinary(dir) {
  if (!existsSync(dir)) return null;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = join(entry.parentPath ?? entry.path, entry.name);
    if (entry.isFile() && entry.name === 'codex' && full.includes('/vendor/') && full.endsWith('/bin/codex'))
      return full;
  }
  return null;
}

/** Path of an `apply_patch` link to the reference binary, or null (with a reason) when unavailable. */
export function referenceApplyPatch(cacheRoot) {
  const dir = join(cacheRoot, 'codex');
  let binary = findBinary(join(dir, 'node_modules'));
  if (!binary) {
    mkdirSync(dir, { recursive: true });
    console.log(`> installing @openai/codex@${CODEX_VERSION} into ${dir} (reference apply_patch)`);
    const r = spawnSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, `@openai/codex@${CODEX_VERSION}`],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) return { path: null, reason: 'npm install @openai/codex failed' };
    binary = findBinary(join(dir, 'node_modules'));
    if (!binary) return { path: null, reason: 'no codex binary for this platform in @openai/codex' };
  }
  const link = join(dir, 'bin', 'apply_patch');
  if (!existsSync(link)) {
    mkdirSync(join(dir, 'bin'), { recursive: true });
    symlinkSync(binary, link);
  }
  return { path: link, reason: null };
}
