import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import {
  CONFIG_FILE,
  climbsOut,
  decideNames,
  type EditError,
  type PermissionPolicy,
  protectedPathReason,
} from '@patchsmith/core';
import type { Plan } from '@patchsmith/planner';
import { describePaths, planPaths } from './permission.js';

// Nothing is there (yet), or a folder on the way is a file: the name is resolved from its parent.
const isAbsent = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as { code?: string }).code ?? '');

/**
 * Where a write to `rel` really lands, relative to the real root: the file itself when it exists
 * (a symlink is written through), else its nearest existing folder resolved, with the rest of the
 * path appended. `/`-separated; may climb out (`../x`) when a symlink leads there.
 */
async function realName(root: string, realRoot: string, rel: string): Promise<string> {
  let existing = join(root, rel);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = join(await realpath(existing), ...rest);
      return relative(realRoot, real).split(sep).join('/');
    } catch (error) {
      if (!isAbsent(error) || dirname(existing) === existing) throw error;
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
}

export interface UndoPermissionOptions {
  policy: PermissionPolicy;
  /** The host allows writing the config file and the state folder (never a patch's or a snapshot's say). */
  allowConfigWrites?: boolean;
}

/**
 * Undo is an edit like any other (issue 12): every path its plan writes is decided by the rules
 * of now, on the path as recorded and on the real path it is written through; any deny wins, and
 * the config file and state folder are protected unless the host allows them. The error that
 * refuses the undo, or null. Reads the disk, writes nothing.
 */
export async function undoPermissionError(
  root: string,
  plan: Plan,
  options: UndoPermissionOptions,
): Promise<EditError | null> {
  const realRoot = await realpath(root);
  const denied: ReturnType<typeof decideNames>[] = [];
  const protectedPaths: string[] = [];
  for (const path of planPaths(plan)) {
    const real = await realName(root, realRoot, path);
    if (climbsOut(real)) {
      return {
        code: 'PATH_OUTSIDE_ROOT',
        message: `${path} leads outside the root (to ${real}); nothing was written.`,
        path,
      };
    }
    const decision = decideNames([path, real], options.policy);
    if (decision.action === 'deny') denied.push(decision);
    const reason = protectedPathReason(path) ?? protectedPathReason(real);
    if (reason !== null && !options.allowConfigWrites) protectedPaths.push(`${path} (${reason})`);
  }
  if (denied.length > 0) {
    const source = options.policy.source ?? CONFIG_FILE;
    const named = denied.map((d) =>
      d.via === undefined ? d : { ...d, path: `${d.path} (written through ${d.via})` },
    );
    return {
      code: 'DENIED',
      message: `Permission denied: ${describePaths(named, source)}. The undo is refused and nothing was written.`,
      path: denied[0]!.path,
    };
  }
  if (protectedPaths.length > 0) {
    return {
      code: 'DENIED',
      message: `The undo would write ${protectedPaths.join(', ')}, which no edit may change unless the host allows it. Nothing was written.`,
    };
  }
  return null;
}
