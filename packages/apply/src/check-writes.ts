import type { EditError } from '@patchsmith/grammar';
import type { PlannedWrite } from '@patchsmith/planner';
import type { RootContext } from './context.js';
import { permissionBits, sha256Hex } from './hash.js';
import { io } from './io-failure.js';
import { IO_CONCURRENCY, mapLimit } from './map-limit.js';
import { type PathResolution, type ResolvedTarget, resolvePath, withLookupCache } from './resolve-path.js';
import { readOnlyProblem } from './writable.js';

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
  const stats = resolved.stats ?? (await io('stat', target, () => ctx.fs.stat(target)));
  const bytes = await io('readFile', target, () => ctx.fs.readFile(target));
  if (sha256Hex(bytes) !== before.hash) return stale(path, `${path} changed since the patch was planned`);
  if (permissionBits(stats.mode) !== permissionBits(before.mode)) {
    return stale(path, `the mode of ${path} changed since the patch was planned`);
  }
  return readOnlyProblem(path, stats);
}

/** Where one write's path leads now, and whether the disk still agrees with its `before`. */
async function inspect(
  ctx: RootContext,
  write: PlannedWrite,
): Promise<{ resolved: PathResolution; problem: EditError | null }> {
  const resolved = await resolvePath(ctx, write.path);
  if (!resolved.ok) return { resolved, problem: null };
  return { resolved, problem: await staleness(ctx, write, resolved) };
}

/**
 * SPEC §4.4, first step: every write's path passes the path policy again and still holds what it
 * held when planned (content hash, mode, presence). All problems are reported together. Writes
 * that change nothing are dropped; two writes that reach the same file (one through a symlink) are
 * refused, since each was planned without the other. The disk is read concurrently; the
 * answers (and their order) are those of checking the writes one by one.
 */
export async function checkWrites(ctx: RootContext, writes: readonly PlannedWrite[]): Promise<CheckResult> {
  const lookups = withLookupCache(ctx);
  const inspected = await mapLimit(writes, IO_CONCURRENCY, (write) => inspect(lookups, write));
  const errors: EditError[] = [];
  const checked: CheckedWrite[] = [];
  const writers = new Map<string, string>();
  for (const [index, found] of inspected.entries()) {
    const write = writes[index]!;
    if (!found.resolved.ok) {
      const { code, message } = found.resolved;
      errors.push({ code, message, path: write.path });
      continue;
    }
    if (found.problem) {
      errors.push(found.problem);
      continue;
    }
    const reached = write.after === null ? found.resolved.entry : found.resolved.target;
    const other = writers.get(reached);
    if (other !== undefined) {
      const message = `${write.path} and ${other} are the same file on disk; the plan cannot write it twice`;
      errors.push({ code: 'PATH_INVALID', message, path: write.path });
      continue;
    }
    writers.set(reached, write.path);
    if (!isNoOp(write)) checked.push({ write, resolved: found.resolved });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, writes: checked };
}
