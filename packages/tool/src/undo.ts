import { resolve } from 'node:path';
import { applyPlan, recoverTransaction, withRootLock } from '@patchsmith/apply';
import {
  type EditError,
  isDiskFs,
  loadConfig,
  PatchsmithError,
  type PatchsmithFs,
  type PermissionPolicy,
} from '@patchsmith/core';
import { type EditReport, errorDetails, errorHeading, fileSummaryLine } from '@patchsmith/formatter';
import type { Plan } from '@patchsmith/planner';
import type { SkippedSnapshot, UndoPlanResult } from '@patchsmith/snapshot';
import { fsOption, snapshotNeedsDisk } from './fs-option.js';
import type { AskPermission } from './permission.js';
import { createPermissionGate, refusalError } from './permission.js';

export interface UndoOptions {
  /** The folder the edits were applied in. Default: the working directory. */
  root?: string;
  /** The snapshot to restore; the latest one not yet undone when absent. */
  id?: string;
  /** Restore even files that changed since the apply (their later changes are lost). */
  force?: boolean;
  lockTimeoutMs?: number;
  /**
   * Asked with the restore plan before anything is written, as `runEdit` asks (see
   * `createPermissionGate`). Default: a gate over the policy that refuses `ask` paths, since no one
   * can be asked. Whatever it answers, a path the policy denies is never written.
   */
  ask?: AskPermission;
  /** The permission rules. Default: the root's `.patchsmith.json` as it is now (not as it was at the apply). */
  policy?: PermissionPolicy;
  /** The host allows the undo to write `.patchsmith.json` and the state folder (a host setting). */
  allowConfigWrites?: boolean;
  /**
   * The file system the restore reads and writes through (see `RunEditOptions.fs`). Snapshots
   * live on the real disk: with an fs that is not the disk, the undo is refused (`NO_SNAPSHOT`).
   */
  fs?: PatchsmithFs;
}

/** An `EditReport` of the restore (its files are what the undo wrote) plus the snapshot it undid. */
export interface UndoReport extends EditReport {
  /** The snapshot that was restored (or, for a redo, brought back), or that the refusal is about; null when none was found. */
  undone: string | null;
  /** Newer snapshots an undo without an id passed over (files changed since, or outside the root). */
  skipped: SkippedSnapshot[];
}

function refused(errors: EditError[], undone: string | null, skipped: SkippedSnapshot[] = []): UndoReport {
  return { ok: false, dryRun: false, files: [], diagnostics: [], snapshot: null, errors, undone, skipped };
}

/** The policy of the call: the caller's, or the root's config file read now. */
async function policyOf(
  root: string,
  options: UndoOptions,
): Promise<{ ok: true; policy: PermissionPolicy } | { ok: false; errors: EditError[] }> {
  if (options.policy !== undefined) return { ok: true, policy: options.policy };
  const config = await loadConfig(root, options.fs);
  return config.ok ? { ok: true, policy: config.value.policy } : config;
}

/**
 * The gate's refusal of the restore plan, or null when the undo may write. The rules under every
 * name of a file (the real path included) and the config's protection are the transaction's to
 * enforce, as for any edit; the gate only asks.
 */
async function permissionRefusal(plan: Plan, ask: AskPermission): Promise<EditError | null> {
  const answer = await ask(plan);
  return answer === 'yes' || answer === 'always' ? null : refusalError(answer, 'undo');
}

/**
 * Restores the files of the latest apply (or of snapshot `id`) and records that it was undone, so
 * the next call moves on to the apply before it. Without an id, the newest snapshot that can be
 * restored is taken: a newer one whose files changed since its apply is passed over (and named in
 * `skipped`), never restored over those changes. An undo is an edit like any other: it refuses
 * with `STALE` (naming the files) when a file changed since the apply (of every snapshot left,
 * without an id), unless `force`; with `DENIED` when the policy of now denies a path it would
 * write (`force` or not), or the gate says no; `NO_SNAPSHOT` when there is nothing to undo;
 * `STATE_INVALID` for a broken or hostile snapshot. What the undo overwrites is kept (the redo
 * record), so `redoLast` can take it back. The whole undo holds the root's lock, like an apply.
 */
export async function undoLast(options: UndoOptions = {}): Promise<UndoReport> {
  const root = resolve(options.root ?? process.cwd());
  // Loaded on demand, as runEdit does: isomorphic-git is heavy for a one-shot process that never undoes.
  const { createSnapshot, markUndone, planUndo } = await import('@patchsmith/snapshot');
  return restoreWith(root, options, {
    plan: () => planUndo({ root, id: options.id, force: options.force ?? false }),
    // The undo's own before state, so a redo can bring back what it overwrote.
    beforeFirstWrite: async (id, checked) => {
      await createSnapshot({
        root,
        plan: checked,
        message: `patchsmith: undo of ${id}`,
        checked: true,
        redoOf: id,
      });
    },
    record: (id) => markUndone({ root, id }),
  });
}

/**
 * Takes back the latest undo: the files it wrote get back what it overwrote, and the snapshot
 * counts as applied again (`undo` finds it first again). Refuses with `STALE` when a file changed
 * since the undo (unless `force`), `NO_SNAPSHOT` when there is no undo to take back; the rules of
 * now and the root's lock apply as for `undoLast`. `undone` names the snapshot brought back.
 */
export async function redoLast(options: Omit<UndoOptions, 'id'> = {}): Promise<UndoReport> {
  const root = resolve(options.root ?? process.cwd());
  const { markRedone, planRedo } = await import('@patchsmith/snapshot');
  return restoreWith(root, options, {
    plan: () => planRedo({ root, force: options.force ?? false }),
    record: (id) => markRedone({ root, id }),
  });
}

/** How one restore (an undo or a redo) plans, what it keeps before it writes, and what it records after. */
interface RestoreSteps {
  plan: () => Promise<UndoPlanResult>;
  beforeFirstWrite?: (id: string, checked: Plan) => Promise<void>;
  record: (id: string) => Promise<void>;
}

async function restoreWith(root: string, options: UndoOptions, steps: RestoreSteps): Promise<UndoReport> {
  if (!isDiskFs(options.fs)) return refused([snapshotNeedsDisk('an undo or redo')], options.id ?? null);
  const fs = fsOption(options.fs);
  try {
    const policy = await policyOf(root, options);
    if (!policy.ok) return refused(policy.errors, options.id ?? null);
    const ask = options.ask ?? createPermissionGate({ policy: policy.policy });
    await recoverTransaction(root, fs);
    const lockOptions = {
      ...fs,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    };
    return await withRootLock(
      root,
      async (lock) => {
        const undo = await steps.plan();
        if (!undo.ok) {
          const error: EditError = { code: undo.code, message: undo.message };
          return refused([error], undo.snapshot?.id ?? null, undo.skipped);
        }
        const id = undo.snapshot.id;
        const refusal = await permissionRefusal(undo.plan, ask);
        if (refusal !== null) return refused([refusal], id, undo.skipped);
        const keep = steps.beforeFirstWrite;
        // The transaction enforces the same policy itself; it is told the gate said yes.
        const applyOptions = {
          root,
          ...fs,
          lock,
          policy: policy.policy,
          askApproved: true,
          allowConfigWrites: options.allowConfigWrites ?? false,
          ...(keep ? { beforeFirstWrite: (checked: Plan) => keep(id, checked) } : {}),
        };
        const applied = await applyPlan(undo.plan, applyOptions);
        if (!applied.ok) return refused(applied.errors, id, undo.skipped);
        await steps.record(id);
        const report: UndoReport = {
          ok: true,
          dryRun: false,
          files: undo.plan.files,
          diagnostics: [],
          snapshot: null,
          errors: [],
          undone: id,
          skipped: undo.skipped,
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

/** The text a model (or a person) reads back after an undo (or, with `redo`, a redo). */
export function formatUndo(report: UndoReport, { redo = false } = {}): string {
  const skipped = report.skipped.map((s) => `Skipped ${s.message}.`);
  if (report.ok) {
    const files = report.files.map((file) => fileSummaryLine(file));
    const summary = files.length > 0 ? files : ['(no file needed restoring)'];
    const done = redo
      ? `Redone ${report.undone}; the files are back as that apply left them.`
      : `Undone ${report.undone}; the files are back as they were before that apply.`;
    return `${[...skipped, done, ...summary].join('\n')}\n`;
  }
  const out = [`The ${redo ? 'redo' : 'undo'} was refused and nothing was written.`];
  for (const error of report.errors) out.push('', errorHeading(error), ...errorDetails(error));
  return `${out.join('\n')}\n`;
}
