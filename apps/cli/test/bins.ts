import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PATCHSMITH_BIN = fileURLToPath(new URL('../bin/patchsmith.cjs', import.meta.url));
export const APPLY_PATCH_BIN = fileURLToPath(new URL('../bin/apply_patch.cjs', import.meta.url));

export interface BinResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bin with plain `node`, as a user would, in `cwd`. */
export function runBin(
  bin: string,
  args: string[],
  opts: { cwd: string; input?: string | Uint8Array; env?: NodeJS.ProcessEnv },
): BinResult {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
