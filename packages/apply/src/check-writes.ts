import type { EditError } from '@patchsmith/grammar';
import type { PlannedWrite } from '@patchsmith/planner';
import type { RootContext } from './context.js';
import { permissionBits, sha256Hex } from './hash.js';
import { io } from './io-failure.js';
import { type ResolvedTarget, resolvePath } from './resolve-path.js';

/** A planned write that passed the checks, with where the disk says it goes. */
export interface CheckedWrite {
  write: PlannedWrite;
  resolved: ResolvedTarget;
}

export type CheckResult = { ok: true; writes: CheckedWrite[] } | { ok: false; errors: EditError[] };

const stale = (path: string, message: string): EditError => ({ code: 'STALE', message, path });

// The write would leave the path exactly as it is (same content and mode, or absent and staying so).
function isNoOp(write: PlannedWrite): boolean {
  const { before, after } = write;
  if (before === null || after === null) return before === null && after === null;
  return permissionBits(after.mode) === permissionBits(before.mode) && sha256Hex(after.bytes) === before.hash;
}

/** Compares the disk with the write's `before`; a STALE error, or null when they agree. */
async function staleness(
  ctx: RootContext,
  write: PlannedWrite,
  resolved: ResolvedTarget,
): Promise<EditError | null> {
  const { path, before } = write;
  if (before === null) {
    if (resolved.kind === 'missing') return null;
    return stale(
      path,
      `${path} was absent when the patch was planned, but is now a ${resolved.kind === 'file' ? 'file' : 'folder'}`,
    );
  }
  if (resolved.kind === 'missing') return stale(path, `${path} was removed since the patch was planned`);
  if (resolved.kind === 'directory') return stale(path, `${path} is now a folder`);
  const { target } = resolved;
  const stats = await io('stat', target, () => ctx.fs.stat(target));
  const bytes = await io('readFile', target, () => ctx.fs.readFile(target));
  if (sha256Hex(bytes) !== before.hash) return stale(path, `${path} changed since the patch was planned`);
  if (permissionBits(stats.mode) !== permissionBits(before.mode)) {
    return stale(path, `the mode of ${path} changed since the patch was planned`);
  }
  return null;
}

/**
 * SPEC §4.4, first step: every write's path passes the path policy again and still holds what it
 * held when planned (content hash, mode, presence). All problems are reported together. Writes
 * that change nothing are dropped; two writes that reach the same file (one through a symlink) are
 * refused, since each was planned without the other.
 */
export async function checkWrites(ctx: RootContext, writes: readonly PlannedWrite[]): Promise<CheckResult> {
  const errors: EditError[] = [];
  const checked: CheckedWrite[] = [];
  const writers = new Map<string, string>();
  for (const write of writes) {
    const resolved = await resolvePath(ctx, write.path);
    if (!resolved.ok) {
      errors.push({ code: resolved.code, message: resolved.message, path: write.path });
      continue;
    }
    const problem = await staleness(ctx, write, resolved);
    if (problem) {
      errors.push(problem);
      continue;
    }
    const reached = write.after === null ? resolved.entry : resolved.target;
    const other = writers.get(reached);
    if (other !== undefined) {
      const message = `${write.path} and ${other} are the same file on disk; the plan cannot write it twice`;
      errors.push({ code: 'PATH_INVALID', message, path: write.path });
      continue;
    }
    writers.set(reached, write.path);
    if (!isNoOp(write)) checked.push({ write, resolved });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, writes: checked };
}
