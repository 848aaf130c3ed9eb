import { posix } from 'node:path';
import { climbsOut, type EditError, type EditScript, isSymlinkMode, type Operation } from '@patchsmith/core';
import type { WrittenBy } from './final-tree.js';
import { resolvePatchPath } from './paths.js';
import type { PlanState } from './state.js';

/**
 * Symbolic links as git diffs carry them (mode 120000, the content is the link's target): the
 * paths to read as links rather than through them, the check that such a path is one, and the
 * rule on what a link the patch writes may point at. A link is never a way out of the root: its
 * target must be relative and stay inside the root from the link's folder (the transaction also
 * resolves it through the links already on disk).
 */

const decoder = new TextDecoder('utf-8', { fatal: true });

// The operation names a symbolic link on its old side (git's old mode 120000).
const namesLink = (op: Operation): boolean =>
  (op.kind === 'update' || op.kind === 'delete') && op.link === true;

/** The canonical paths the script reads as symbolic links (not followed): pass them to the reader. */
export function linkPaths(script: EditScript, root: string): string[] {
  const paths = new Set<string>();
  for (const op of script.operations) {
    if (!namesLink(op)) continue;
    const resolved = resolvePatchPath(root, op.path);
    if (resolved.ok) paths.add(resolved.path);
  }
  return [...paths];
}

/** Why an operation on a link cannot apply to what `path` holds (a regular file), or null. */
export function linkMismatch(op: Operation, path: string, state: PlanState): EditError | null {
  if (!namesLink(op)) return null;
  const slot = state.get(path);
  if (slot.kind !== 'file' || isSymlinkMode(slot.mode)) return null;
  const message = `${path} is a regular file, but the patch changes it as a symbolic link (mode 120000)`;
  return { code: 'NOT_A_FILE', message, path, line: op.line };
}

/** Why a link at `path` may not point at `bytes`, or null. */
function targetProblem(path: string, bytes: Uint8Array): string | null {
  let target: string;
  try {
    target = decoder.decode(bytes);
  } catch {
    return 'its target is not UTF-8 text';
  }
  if (target === '' || target.includes('\0')) return 'its target is empty or holds a NUL byte';
  if (posix.isAbsolute(target) || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\'))
    return `its target ${JSON.stringify(target)} is an absolute path`;
  // `..` after a name goes back through what that name is (another link, maybe): where it leads
  // cannot be told from the text, so only leading `..` segments are taken.
  const segments = target.split('/');
  const firstName = segments.findIndex((s) => s !== '..');
  if (firstName !== -1 && segments.slice(firstName).includes('..'))
    return `its target ${JSON.stringify(target)} climbs back out of a folder it names`;
  if (climbsOut(posix.normalize(posix.join(posix.dirname(path), target))))
    return `its target ${JSON.stringify(target)} leads outside the root`;
  return null;
}

/** Every link the patch leaves whose target is refused: PATH_OUTSIDE_ROOT (or INVALID_EDIT for one that is no path), naming the link. */
export function linkTargetErrors(
  state: PlanState,
  writtenBy: ReadonlyMap<string, WrittenBy>,
  allowOutside: boolean,
): EditError[] {
  const errors: EditError[] = [];
  for (const [path, { line }] of writtenBy) {
    const slot = state.get(path);
    if (slot.kind !== 'file' || !isSymlinkMode(slot.mode)) continue;
    const problem = targetProblem(path, slot.bytes);
    if (problem === null) continue;
    const code = problem.includes('target "') ? 'PATH_OUTSIDE_ROOT' : 'INVALID_EDIT';
    if (code === 'PATH_OUTSIDE_ROOT' && allowOutside) continue;
    errors.push({ code, message: `the symbolic link ${path} is refused: ${problem}`, path, line });
  }
  return errors;
}
