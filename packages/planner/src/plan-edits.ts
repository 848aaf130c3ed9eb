import type { EditError, EditScript, Operation, ReplaceText } from '@patchsmith/core';
import { planAdd } from './add.js';
import type { LocateSettings } from './apply-chunks.js';
import { planBinary } from './binary.js';
import { planDelete } from './delete.js';
import { elisionError } from './elided-code.js';
import { finalTreeConflicts, type WrittenBy } from './final-tree.js';
import { planInsert } from './insert.js';
import { linkMismatch, linkTargetErrors } from './links.js';
import { nearestBudget } from './miss-error.js';
import type { OpOutcome } from './outcome.js';
import { resolvePatchPath } from './paths.js';
import { planCreateOrAppend, planReplaces } from './replace.js';
import { PlanState } from './state.js';
import type { FileState, PlannedFile, PlanOptions, PlanResult } from './types.js';
import { planUpdate } from './update.js';

/** Canonical paths of one operation, or the policy errors of its raw paths. */
type ResolvedOp =
  | { ok: true; path: string; movePath?: string; otherPath?: string }
  | { ok: false; errors: EditError[] };

function resolveOperation(op: Operation, root: string): ResolvedOp {
  const errors: EditError[] = [];
  const canonical = (raw: string): string | undefined => {
    const resolved = resolvePatchPath(root, raw);
    if (resolved.ok) return resolved.path;
    errors.push({ code: resolved.code, message: resolved.message, path: raw, line: op.line });
    return undefined;
  };
  const path = canonical(op.path);
  const movePath = 'movePath' in op && op.movePath !== undefined ? canonical(op.movePath) : undefined;
  // Every name the patch gives must pass the policy, the one not edited too.
  const otherPath = op.kind === 'update' && op.otherPath !== undefined ? canonical(op.otherPath) : undefined;
  if (path === undefined || errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    path,
    // A move onto the file itself is a plain update (SPEC §3).
    ...(movePath !== undefined && movePath !== path && { movePath }),
    ...(otherPath !== undefined && otherPath !== path && { otherPath }),
  };
}

/**
 * A traditional diff's two names (`diff -u f.orig f`): the preferred one unless only the other
 * holds a file (GNU patch's rule; git's would refuse). Never both: the other name is not touched.
 */
function existingTarget(resolved: ResolvedOp & { ok: true }, state: PlanState): ResolvedOp & { ok: true } {
  const { path, otherPath } = resolved;
  if (otherPath === undefined || state.peek(path) === 'file' || state.peek(otherPath) !== 'file')
    return resolved;
  return { ...resolved, path: otherPath };
}

/** A str_replace edit or SEARCH/REPLACE block that searches (an empty search creates or appends). */
function isSearching(op: Operation): op is ReplaceText {
  return op.kind === 'replace' && op.search !== '';
}

/**
 * The outcomes of the operations from `k` on: one, or one per searching edit of the run of them
 * on the same file that starts there (planned together over one index of the file).
 */
function planNext(
  ops: readonly Operation[],
  k: number,
  target: { path: string; movePath?: string },
  state: PlanState,
  options: { root: string; locate: LocateSettings },
): OpOutcome[] {
  const op = ops[k]!;
  if (!isSearching(op)) return [planOperation(op, target, state, options.locate)];
  const run: ReplaceText[] = [op];
  for (let next = ops[k + 1]; next !== undefined && isSearching(next); next = ops[k + run.length]) {
    const resolved = resolveOperation(next, options.root);
    if (!resolved.ok || resolved.path !== target.path) break;
    run.push(next);
  }
  return planReplaces(run, target.path, state, options.locate);
}

function planOperation(
  op: Operation,
  target: { path: string; movePath?: string },
  state: PlanState,
  locate: LocateSettings,
): OpOutcome {
  switch (op.kind) {
    case 'add':
      return planAdd(op, target.path, state);
    case 'delete':
      return planDelete(op, target.path, state, locate);
    case 'update':
      return planUpdate(op, target, state, locate);
    case 'replace':
      return op.search === ''
        ? planCreateOrAppend(op, target.path, state)
        : planReplaces([op], target.path, state, locate)[0]!;
    case 'insert':
      return planInsert(op, target.path, state);
    case 'binary':
      return planBinary(op, target, state);
  }
}

/**
 * SPEC §3: turns an edit script and the state of every path it touches (keyed by the canonical
 * paths `touchedPaths` returns) into a plan: each operation composed in patch order against the
 * planned state, with its diff and counts, and the final effect on each path. Pure: reads and
 * writes nothing. Every error of every operation and chunk is collected; any error means no plan.
 * An operation on a path where an earlier operation failed is skipped silently: its input is unknown.
 */
export function planEdits(
  script: EditScript,
  files: ReadonlyMap<string, FileState>,
  options: PlanOptions,
): PlanResult {
  const state = new PlanState(files);
  const errors: EditError[] = [];
  const planned: PlannedFile[] = [];
  /** Failed operations whose change is already in their file, and the paths they name. */
  const alreadyApplied: string[] = [];
  let failed = 0;
  const writtenBy = new Map<string, WrittenBy>();
  const locate: LocateSettings = {
    firstMatch: options.firstMatch ?? false,
    ...(options.similarity !== undefined && { similarity: options.similarity }),
    nearest: nearestBudget(),
  };
  const ops = script.operations;
  for (let k = 0; k < ops.length; ) {
    const resolved = resolveOperation(ops[k]!, options.root);
    if (!resolved.ok) {
      for (const error of resolved.errors) errors.push(error);
      failed++;
      k++;
      continue;
    }
    const mismatch = linkMismatch(ops[k]!, resolved.path, state);
    if (mismatch !== null) {
      errors.push(mismatch);
      state.set(resolved.path, { kind: 'poisoned' });
      failed++;
      k++;
      continue;
    }
    for (const outcome of planNext(ops, k, existingTarget(resolved, state), state, {
      root: options.root,
      locate,
    })) {
      const op = ops[k++]!;
      const elided = outcome.ok && !options.allowElision ? elisionError(op, outcome.file.path, state) : null;
      if (!outcome.ok || elided !== null) {
        for (const error of outcome.ok ? [elided!] : outcome.errors) errors.push(error);
        if (!outcome.ok && outcome.alreadyApplied)
          for (const path of outcome.paths) alreadyApplied.push(path);
        else failed++;
        const paths = outcome.ok ? outcome.changes.map(([path]) => path) : outcome.paths;
        for (const path of paths) state.set(path, { kind: 'poisoned' });
        continue;
      }
      for (const [path, slot] of outcome.changes) {
        state.set(path, slot);
        if (slot.kind === 'file') writtenBy.set(path, { line: op.line, order: k });
      }
      planned.push(outcome.file);
    }
  }
  const conflicts = [
    ...finalTreeConflicts(state, writtenBy),
    ...linkTargetErrors(state, writtenBy, options.allowOutsideLinks ?? false),
  ];
  for (const error of conflicts) errors.push(error);
  failed += conflicts.length;
  if (errors.length > 0 && (failed > 0 || state.changesAnything())) return { ok: false, errors };
  if (errors.length > 0) return { ok: false, errors: [reapplied(alreadyApplied)] };
  if (!state.changesAnything()) return { ok: false, errors: [changesNothing(planned)] };
  return { ok: true, plan: { files: planned, writes: state.writes() } };
}

/** Every change of the patch is already in its file, and nothing else would change. */
function reapplied(paths: readonly string[]): EditError {
  const names = [...new Set(paths)].join(', ');
  return {
    code: 'EMPTY_PATCH',
    message:
      `the patch looks already applied: the lines it would write are already in ${names}, and the lines ` +
      'it would replace are not; nothing was changed',
    ...(paths.length === 1 && { path: paths[0] }),
  };
}

/** A plan that leaves every byte and mode as it is (SPEC §5: never reported as applied). */
function changesNothing(planned: readonly PlannedFile[]): EditError {
  const names = [...new Set(planned.map((f) => f.movePath ?? f.path))].join(', ');
  return {
    code: 'EMPTY_PATCH',
    message:
      `the patch changes nothing: ${names || 'every file it names'} would keep every byte ` +
      '(its new lines are already what the file holds: it may be applied already)',
    ...(planned.length === 1 && { path: planned[0]!.path }),
  };
}
