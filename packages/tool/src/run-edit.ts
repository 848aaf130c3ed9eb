import { type EditError, type EditScript, parsePatch } from '@patchsmith/grammar';
import { type Plan, planEdits, touchedPaths } from '@patchsmith/planner';
import { applyPlan, readFiles, recoverTransaction } from '@patchsmith/apply';
import type { EditReport, FileDiagnosticsReport } from '@patchsmith/formatter';
import { locateStateDir } from '@patchsmith/snapshot';
import { resolve } from 'node:path';

/** What the permission gate may answer after seeing the whole plan. */
export type PermissionAnswer = 'yes' | 'no' | 'always';

export type AskPermission = (plan: Plan) => Promise<PermissionAnswer> | PermissionAnswer;

/** Produces diagnostics for the files an apply wrote; see @patchsmith/lsp. */
export type DiagnoseWrites = (
  edits: { path: string; before: string | null; after: string }[],
) => Promise<FileDiagnosticsReport[]>;

export interface RunEditOptions {
  /** The folder the patch's paths are relative to. Default: the working directory. */
  root?: string;
  /** Plan and report only; write nothing. */
  dryRun?: boolean;
  /** Take the first candidate of an ambiguous chunk (the reference's behaviour). */
  firstMatch?: boolean;
  /**
   * Record a ghost-commit snapshot before writing: `true` (default) always; `'in-repository'` only
   * when the root is inside a git repository, so nothing is left in a plain folder (the drop-in
   * `apply_patch` uses this); `false` never.
   */
  snapshot?: boolean | 'in-repository';
  ask?: AskPermission;
  diagnose?: DiagnoseWrites;
  /** How long to wait for another apply in the same root. */
  lockTimeoutMs?: number;
}

export type EditInput = { kind: 'patch'; text: string };

function rejected(errors: EditError[], dryRun: boolean): EditReport {
  return { ok: false, dryRun, files: [], diagnostics: [], snapshot: null, errors };
}

function parseInput(input: EditInput) {
  return parsePatch(input.text);
}

const decoder = new TextDecoder();

async function wantsSnapshot(root: string, setting: boolean | 'in-repository'): Promise<boolean> {
  if (setting !== 'in-repository') return setting;
  return (await locateStateDir(root)).gitDir !== null;
}

/**
 * The whole pipeline: parse -> plan -> ask -> snapshot -> apply -> diagnose. Every expected failure
 * comes back as an `EditReport` with `ok: false`; nothing is written unless every step before the
 * apply succeeded.
 */
export async function runEdit(input: EditInput, options: RunEditOptions = {}): Promise<EditReport> {
  const root = resolve(options.root ?? process.cwd());
  const dryRun = options.dryRun ?? false;
  await recoverTransaction(root);

  const parsed = parseInput(input);
  if (!parsed.ok) return rejected(parsed.errors, dryRun);
  const script: EditScript = parsed.value;

  const files = await readFiles(root, touchedPaths(script, root));
  const planned = planEdits(script, files, { root, firstMatch: options.firstMatch ?? false });
  if (!planned.ok) return rejected(planned.errors, dryRun);
  const plan = planned.plan;
  const report: EditReport = { ok: true, dryRun, files: plan.files, diagnostics: [], snapshot: null, errors: [] };
  if (dryRun) return report;

  if (options.ask && (await options.ask(plan)) === 'no') {
    return rejected([{ code: 'DENIED', message: 'The edit was not allowed; nothing was written.' }], dryRun);
  }

  if (await wantsSnapshot(root, options.snapshot ?? true)) {
    const { createSnapshot } = await import('@patchsmith/snapshot');
    const summary = plan.files.map((f) => `${f.op} ${f.path}`).join(', ');
    const snap = await createSnapshot({ root, plan, message: `patchsmith: ${summary}` });
    report.snapshot = snap.id;
  }

  const applied = await applyPlan(plan, { root, lockTimeoutMs: options.lockTimeoutMs });
  if (!applied.ok) return { ...rejected(applied.errors, dryRun), snapshot: null };

  if (options.diagnose) {
    const edits = plan.writes
      .filter((w) => w.after !== null)
      .map((w) => {
        const before = files.get(w.path);
        return {
          path: resolve(root, w.path),
          before: before?.kind === 'file' ? decoder.decode(before.bytes) : null,
          after: decoder.decode(w.after!.bytes),
        };
      });
    report.diagnostics = await options.diagnose(edits);
  }
  return report;
}
