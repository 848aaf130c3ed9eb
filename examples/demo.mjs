#!/usr/bin/env node
// The README's first command ends here: copy the demo project to a temporary folder, apply
// examples/demo/upgrade.patch with the real `patchsmith` bin, and show what happened.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'apps', 'cli', 'bin', 'patchsmith.cjs');
const work = mkdtempSync(join(tmpdir(), 'patchsmith-demo-'));
cpSync(join(here, 'demo', 'project'), work, { recursive: true });
const patchFile = join(here, 'demo', 'upgrade.patch');

function patchsmith(...args) {
  console.log(`\n$ patchsmith ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [bin, ...args, '--cwd', work], { stdio: 'inherit' });
  return r.status;
}

try {
  console.log(`Demo project copied to ${work}`);
  console.log(`\n--- the patch (examples/demo/upgrade.patch) ---\n${readFileSync(patchFile, 'utf8')}`);
  const status = patchsmith('apply', patchFile, '--diff');
  if (status !== 0) {
    // A failed apply must fail the README's first command, not go on to show an untouched file.
    console.error(`\nthe apply failed (exit status ${status}); the demo stops here`);
    process.exitCode = status || 1;
  } else {
    console.log(
      `\n--- src/greet.ts after the patch ---\n${readFileSync(join(work, 'src', 'greet.ts'), 'utf8')}`,
    );
    const logStatus = patchsmith('log');
    const undoStatus = patchsmith('undo');
    console.log(`\nexit status of the apply: ${status}`);
    process.exitCode = logStatus || undoStatus || 0;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
