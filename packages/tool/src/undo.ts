import { resolve } from 'node:path';
import { applyPlan, recoverTransaction, withRootLock } from '@patchsmith/apply';
import { type EditReport, errorDetails, errorHeading, fileSummaryLine } from '@patchsmith/formatter';
import { type EditError, PatchsmithError } from '@patchsmith/grammar';

export interface UndoOptions {
  /** The folder the edits were applied in. Default: the working directory. */
  root?: string;
  /** The snapshot to restore; the latest one not yet undone when absent. */
  id?: string;
  /** Restore even files that changed since the apply (their later changes are lost). */
  force?: boolean;
  lockTimeoutMs?: number;
}

/** An `EditReport` of the restore (its files are what the undo wrote) plus the snapshot it undid. */
export interface UndoReport extends EditReport {
  /** The snapshot that was restored, or that the refusal is about; null when none was found. */
  undone: string | null;
}

function refused(errors: EditError[], undone: string | null): UndoReport {
  return { ok: false, dryRun: false, files: [], diagnostics: [], snapshot: null, errors, undone };
}

/**
 * Restores the files of the latest apply (or of snapshot `id`) and records that it was undone, so
 * the next call moves on to the apply before it. Refuses with `STALE` (naming the files) when a file
 * changed since the apply, unless `force`; `FILE_NOT_FOUND` when there is nothing to undo. The
 * whole undo holds the root's lock, like an apply.
 */
export async function undoLast(options: UndoOptions = {}): Promise<UndoReport> {
  const root = resolve(options.root ?? process.cwd());
  // Loaded on demand, as runEdit does: isomorphic-git is heavy for a one-shot process that never undoes.
  const { markUndone, planUndo } = await import('@patchsmith/snapshot');
  try {
    await recoverTransaction(root);
    const lockOptions = options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs };
    return await withRootLock(
      root,
      async (lock) => {
        const undo = await planUndo({ root, id: options.id, force: options.force ?? false });
        if (!undo.ok) {
          const error: EditError = { code: undo.code, message: undo.message };
          return refused([error], undo.snapshot?.id ?? null);
        }
        const applied = await applyPlan(undo.plan, { root, lock });
        if (!applied.ok) return refused(applied.errors, undo.snapshot.id);
        await markUndone({ root, id: undo.snapshot.id });
        const report: UndoReport = {
          ok: true,
          dryRun: false,
          files: undo.plan.files,
          diagnostics: [],
          snapshot: null,
          errors: [],
          undone: undo.snapshot.id,
        };
        return report;
      },
      lockOptions,
    );
  } catch (error) {
    if (error instanceof PatchsmithError) return refused([error.toEditError()], options.id ?? null);
    throw error;
  }
}

/** The text a model (or a person) reads back after an undo. */
export function formatUndo(report: UndoReport): string {
  if (report.ok) {
    const files = report.files.map((file) => fileSummaryLine(file));
    const summary = files.length > 0 ? files : ['(no file needed restoring)'];
    return `${[`Undone ${report.undone}; the files are back as they were before that apply.`, ...summary].join('\n')}\n`;
  }
  const out = ['The undo was refused and nothing was written.'];
  for (const error of report.errors) out.push('', errorHeading(error), ...errorDetails(error));
  return `${out.join('\n')}\n`;
}
