import type { EditError, EditScript, Operation } from '@patchsmith/grammar';
import { planAdd } from './add.js';
import type { LocateSettings } from './apply-chunks.js';
import { planDelete } from './delete.js';
import { planInsert } from './insert.js';
import { nearestBudget } from './miss-error.js';
import type { OpOutcome } from './outcome.js';
import { resolvePatchPath } from './paths.js';
import { planReplace } from './replace.js';
import { PlanState } from './state.js';
import type { FileState, PlannedFile, PlanOptions, PlanResult } from './types.js';
import { planUpdate } from './update.js';

/** Canonical paths of one operation, or the policy errors of its raw paths. */
type ResolvedOp = { ok: true; path: string; movePath?: string } | { ok: false; errors: EditError[] };

function resolveOperation(op: Operation, root: string): ResolvedOp {
  const errors: EditError[] = [];
  const canonical = (raw: string): string | undefined => {
    const resolved = resolvePatchPath(root, raw);
    if (resolved.ok) return resolved.path;
    errors.push({ code: resolved.code, message: resolved.message, path: raw, line: op.line });
    return undefined;
  };
  const path = canonical(op.path);
  const movePath = op.kind === 'update' && op.movePath !== undefined ? canonical(op.movePath) : undefined;
  if (path === undefined || errors.length > 0) return { ok: false, errors };
  // A move onto the file itself is a plain update (SPEC §3).
  return movePath === undefined || movePath === path ? { ok: true, path } : { ok: true, path, movePath };
}

/** `ancestor` is a folder above `path`. */
function isBelow(path: string, ancestor: string): boolean {
  return path.startsWith(`${ancestor}/`);
}

/**
 * SPEC §3: a file cannot be written below a file, nor where the plan already put files below.
 * Only touched paths are known here; the reader reports the same conflict with files on disk.
 */
function treeConflicts(outcome: OpOutcome & { ok: true }, state: PlanState, line: number): EditError[] {
  // The exact check below walks every touched file; run it only when some write may clash.
  if (!outcome.changes.some(([path, slot]) => slot.kind === 'file' && state.mayClash(path))) return [];
  const errors: EditError[] = [];
  const files = state.filePaths();
  for (const [path, slot] of outcome.changes) {
    if (slot.kind !== 'file') continue;
    for (const other of files) {
      if (other === path || outcome.changes.some(([changed, s]) => changed === other && s.kind !== 'file'))
        continue;
      if (isBelow(path, other)) {
        errors.push({
          code: 'NOT_A_FILE',
          message: `cannot write ${path}: ${other} is a file, not a folder`,
          path,
          line,
        });
      } else if (isBelow(other, path)) {
        errors.push({
          code: 'NOT_A_FILE',
          message: `cannot write ${path}: it is a folder holding ${other}`,
          path,
          line,
        });
      }
    }
  }
  return errors;
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
      return planDelete(op, target.path, state);
    case 'update':
      return planUpdate(op, target, state, locate);
    case 'replace':
      return planReplace(op, target.path, state, locate);
    case 'insert':
      return planInsert(op, target.path, state);
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
  const locate: LocateSettings = {
    firstMatch: options.firstMatch ?? false,
    ...(options.similarity !== undefined && { similarity: options.similarity }),
    nearest: nearestBudget(),
  };
  for (const op of script.operations) {
    const resolved = resolveOperation(op, options.root);
    if (!resolved.ok) {
      for (const error of resolved.errors) errors.push(error);
      continue;
    }
    const outcome = planOperation(op, resolved, state, locate);
    const conflicts = outcome.ok ? treeConflicts(outcome, state, op.line) : [];
    if (!outcome.ok || conflicts.length > 0) {
      for (const error of outcome.ok ? conflicts : outcome.errors) errors.push(error);
      const paths = outcome.ok ? outcome.changes.map(([path]) => path) : outcome.paths;
      for (const path of paths) state.set(path, { kind: 'poisoned' });
      continue;
    }
    for (const [path, slot] of outcome.changes) state.set(path, slot);
    planned.push(outcome.file);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, plan: { files: planned, writes: state.writes() } };
}
