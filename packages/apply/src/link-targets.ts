import { dirname, join, relative, resolve, sep } from 'node:path';
import { type EditError, hashBytes, isInsidePath, isSymlinkMode, sameBytes } from '@patchsmith/core';
import type { PlannedWrite } from '@patchsmith/planner';
import type { CheckedWrite, DiskCheck } from './checked-write.js';
import type { RootContext } from './context.js';
import { errnoOf } from './fs.js';
import { IoFailure, io } from './io-failure.js';
import type { ResolvedTarget } from './resolve-path.js';

/**
 * The transaction's side of symbolic links (git's mode 120000): a write that replaces or makes a
 * link works on the link itself, its staleness is the link's target text, and the link it makes
 * must lead inside the root from where it really is, through every link already on disk (the
 * planner has checked the target lexically).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The write reads or leaves a symbolic link at its path: the path is resolved without following it.
export const writesLink = (write: PlannedWrite): boolean =>
  isSymlinkMode(write.before?.mode) || isSymlinkMode(write.after?.mode);

const stale = (path: string, message: string): DiskCheck => ({ problem: { code: 'STALE', message, path } });

/** Whether the link (or the file that replaced it) is still what the plan read. */
export async function linkStaleness(
  ctx: RootContext,
  write: PlannedWrite,
  resolved: ResolvedTarget,
): Promise<DiskCheck> {
  const { path, before } = write;
  if (!isSymlinkMode(before!.mode)) return stale(path, `${path} is now a symbolic link`);
  if (!resolved.link) return stale(path, `${path} is no longer a symbolic link`);
  const text = await io('readlink', resolved.entry, () => ctx.fs.readlink(resolved.entry));
  const bytes = encoder.encode(text);
  const same =
    before!.bytes !== undefined ? sameBytes(bytes, before!.bytes) : hashBytes(bytes) === before!.hash;
  if (!same) return stale(path, `the symbolic link ${path} points elsewhere since the patch was planned`);
  return { problem: null, current: bytes };
}

/** The real path `dest` leads to: its deepest existing folder resolved, the rest appended. */
async function realDestination(ctx: RootContext, dest: string): Promise<string> {
  const rest: string[] = [];
  for (let at = dest; ; at = dirname(at)) {
    try {
      return join(await ctx.fs.realpath(at), ...rest.reverse());
    } catch (error) {
      const code = errnoOf(error);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(at) === at)
        throw new IoFailure('realpath', at, error);
      rest.push(relative(dirname(at), at));
    }
  }
}

/** Every link the plan makes that would lead outside the root or into private state: PATH_OUTSIDE_ROOT. */
export async function linkTargetProblems(
  ctx: RootContext,
  checked: readonly CheckedWrite[],
  allowOutside: boolean,
): Promise<EditError[]> {
  const problems: EditError[] = [];
  for (const { write, resolved } of checked) {
    if (write.after === null || !isSymlinkMode(write.after.mode)) continue;
    const target = decoder.decode(write.after.bytes);
    const real = await realDestination(ctx, resolve(dirname(resolved.entry), target));
    const intoState = ctx.privateDirs.some((dir) => isInsidePath(real, dir));
    if (!intoState && (allowOutside || isInsidePath(real, ctx.realRoot))) continue;
    const shown = isInsidePath(real, ctx.realRoot) ? relative(ctx.realRoot, real).split(sep).join('/') : real;
    problems.push({
      code: 'PATH_OUTSIDE_ROOT',
      message: `the symbolic link ${write.path} is refused: its target ${JSON.stringify(target)} leads to ${shown}, outside the root or into private state`,
      path: write.path,
    });
  }
  return problems;
}
