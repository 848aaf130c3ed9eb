import { resolve } from 'node:path';
import { applyPlan, checkPlan, readFiles, recoverTransaction, withRootLock } from '@patchsmith/apply';
import {
  type EditError,
  type EditScript,
  isDiskFs,
  loadConfig,
  locateStateDir,
  type PatchsmithConfig,
  PatchsmithError,
  type PatchsmithFs,
  type Result,
  type StrReplaceCommand,
} from '@patchsmith/core';
import type { EditReport, FileDiagnosticsReport } from '@patchsmith/formatter';
import { compileStrReplace, parseEdits } from '@patchsmith/grammar';
import {
  type FileState,
  linkPaths,
  type Plan,
  type PlanResult,
  perFile,
  planEdits,
  planNotebooks,
  touchedPaths,
} from '@patchsmith/planner';
import { changedSinceRead } from './changed-since-read.js';
import type { EditInput } from './edit-input.js';
import { type EditPlan, editPlanOf, planningOf } from './edit-plan.js';
import { FORMAT_TIMEOUT_MS, type FormatPlanOptions, formatPlan } from './format-code.js';
import { fsOption, snapshotNeedsDisk } from './fs-option.js';
import { planAgainstReads } from './merge-stale.js';
import { type AskPermission, createPermissionGate, refusalError } from './permission.js';
import { planEachFile } from './plan-each-file.js';
import { checkAborted, type EditProgress, throwIfAborted } from './progress.js';
import type { ReadVersions } from './read-versions.js';

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
   * Let an edit replace lines by a placeholder such as `// ... existing code ...`; by default such
   * an edit is refused with ELIDED_CODE (the deleted lines are the ones the model did not repeat).
   */
  allowElision?: boolean;
  /**
   * Record a ghost-commit snapshot before writing: `true` (default) always; `'in-repository'` only
   * when the root is inside a git repository, so nothing is left in a plain folder (the drop-in
   * `apply_patch` uses this); `false` never.
   */
  snapshot?: boolean | 'in-repository';
  /**
   * The permission gate, asked with the whole plan before anything is written. Default: the root's
   * `.patchsmith.json` rules with nobody to ask (`ask` paths are refused, saying how to allow them).
   * Whatever the gate answers, the transaction still refuses what the root's rules deny, under
   * the path as written and the real path written.
   */
  ask?: AskPermission;
  /** A host setting, never something a patch carries: let edits write `.patchsmith.json` and `.patchsmith/`. */
  allowConfigWrites?: boolean;
  /**
   * A host setting, never something a patch carries: let a symbolic link the patch makes point
   * outside the root (off: `PATH_OUTSIDE_ROOT`). Writes through such a link are still refused.
   */
  allowOutsideLinks?: boolean;
  diagnose?: DiagnoseWrites;
  /** How long to wait for another apply in the same root. */
  lockTimeoutMs?: number;
  /**
   * What the model read of the files it edits (content, or a hash of what `viewFile` showed in
   * this process). A file that changed since is planned as read and the edit merged into it as it
   * is now (diff3): a clean merge applies with `merged` on its report, a conflict is `STALE`. A
   * file that changed with only a hash the tool does not know is `STALE`.
   */
  readVersions?: ReadVersions;
  /**
   * Apply what can be applied: every file whose edits all locate is written (all of them in one
   * transaction), the others are reported with their errors and left untouched. The report is then
   * `ok: false, partial: true` with the files written. Default: all or nothing.
   */
  partial?: boolean;
  /**
   * The host's cancel: aborted before the first write (even while the gate asks), the call is
   * rejected with `ABORTED` and nothing is written; once writing began, it finishes.
   */
  signal?: AbortSignal;
  /** Told each stage as the call enters it (see `EditProgress`). */
  onProgress?: (progress: EditProgress) => void;
  /**
   * The host's last word on the parsed script, before any file is read: the script to plan, or the
   * errors to refuse the edit with (the CLI maps `git apply`'s subfolder rule with it). The
   * transaction still checks every path it returns. An `EditPlan` made with it is applied only
   * by a host that passes the same function again.
   */
  mapScript?: (script: EditScript) => Result<EditScript>;
  /**
   * Given the edit script once the input parsed (before `mapScript`), before planning: a caller that reports in the
   * input's own terms (the drop-in `apply_patch` prints paths as written) needs not parse it again
   * (for a 10 MB patch, a second copy of every line and its time).
   */
  onParsed?: (script: EditScript) => void;
  /**
   * The file system every read and write of the call goes through: the files, the config, the
   * lock, the journal (e.g. a host's virtual tree, an editor's unsaved buffers). Default: the
   * disk, through `node:fs/promises`. apply's `syncFs` is the disk through synchronous calls, for
   * a process that runs one edit and exits. The snapshot store needs the real disk: with an fs
   * that is not (`disk` unset), pass `snapshot: false`; anything else is refused (`NO_SNAPSHOT`)
   * before a file is read.
   */
  fs?: PatchsmithFs;
  /**
   * Run the project's formatter on every text file the edit writes, before anything is written,
   * so the diff reported is what lands on disk: the `format` entries of `.patchsmith.json`, else
   * the prettier or biome config found in the root (prettier in this process, biome and commands
   * on stdin, in the root, without a shell). This runs the repository's own code (its formatter,
   * its prettier config and plugins): a host setting, off by default. A formatter that fails
   * leaves the file as the edit made it, with a note on its record.
   */
  formatCode?: boolean;
  /** How long one formatter run may take (default 10 s); after that it is killed and the file left unformatted. */
  formatTimeoutMs?: number;
}

export type { EditInput, PatchInputFormat } from './edit-input.js';

function rejected(errors: EditError[], dryRun: boolean): EditReport {
  return { ok: false, dryRun, files: [], diagnostics: [], snapshot: null, errors };
}

/** Every input compiles to one edit script: patch texts through `parseEdits`, text-editor commands through `compileStrReplace`. */
function parseInput(input: EditInput): Result<EditScript> {
  if (input.kind === 'edits') return compileStrReplace(input.edits);
  return parseEdits(input.text, input.format ?? 'auto');
}

const decoder = new TextDecoder();

/** Takes the snapshot of a plan the transaction has just checked under its lock (`beforeFirstWrite`). */
async function takeSnapshot(root: string, plan: Plan): Promise<string> {
  const { createSnapshot } = await import('@patchsmith/snapshot');
  const summary = perFile(plan.files)
    .map((f) => `${f.op} ${f.movePath ?? f.path}`)
    .join(', ');
  return (await createSnapshot({ root, plan, message: `patchsmith: ${summary}`, checked: true })).id;
}

/** A snapshot of an apply that did not happen must not be what the next `undo` restores. */
async function retireSnapshot(root: string, id: string): Promise<void> {
  const { markUndone } = await import('@patchsmith/snapshot');
  await markUndone({ root, id }).catch(() => {});
}

async function wantsSnapshot(
  root: string,
  setting: boolean | 'in-repository',
  fs: PatchsmithFs | undefined,
): Promise<boolean> {
  if (setting !== 'in-repository') return setting;
  return (await locateStateDir(root, fs)).gitDir !== null;
}

/**
 * The whole pipeline: parse -> plan -> ask -> snapshot -> apply -> diagnose. Every expected failure
 * comes back as an `EditReport` with `ok: false`; nothing is written unless every step before the
 * apply succeeded.
 */
export async function runEdit(input: EditInput, options: RunEditOptions = {}): Promise<EditReport> {
  try {
    return await runPipeline(input, options);
  } catch (error) {
    // A known failure thrown deep inside (a snapshot that found a file changed, a caller bug
    // with a code) is still a structured rejection, never a stack trace.
    if (error instanceof PatchsmithError) return rejected([error.toEditError()], options.dryRun ?? false);
    throw error;
  }
}

/**
 * The planning half of the pipeline: what `runEdit` would do, with the files as they are now.
 * `refused`: under `partial`, the errors of the files left out of the plan.
 */
export type PlannedEdit =
  /**
   * `refused`: under `partial`, the errors of the files left out. `edit`: the plan as plain JSON,
   * with its id and fingerprint, for `applyPlanned`.
   */
  | { ok: true; plan: Plan; before: ReadonlyMap<string, FileState>; refused: EditError[]; edit: EditPlan }
  | { ok: false; errors: EditError[] };

/**
 * Parses and plans an edit without asking, snapshotting or writing anything: for previews
 * (`patchsmith diff`, a host's review screen). Recovers an interrupted apply first, so the plan is
 * made against a whole tree.
 */
export async function planEdit(
  input: EditInput,
  options: Pick<RunEditOptions, PlanningOption | 'root'> = {},
): Promise<PlannedEdit> {
  const root = resolve(options.root ?? process.cwd());
  await recoverTransaction(root, fsOption(options.fs));
  let config: PatchsmithConfig | null = null;
  if (options.formatCode) {
    const loaded = await loadConfig(root, options.fs);
    if (!loaded.ok) return loaded;
    config = loaded.value;
  }
  const planned = await planWholeTree(input, root, options, formatting(root, options, config));
  return planned.ok
    ? {
        ...planned,
        edit: editPlanOf(input, root, options.firstMatch ?? false, planningOf(options), planned.plan),
      }
    : planned;
}

/** The options that decide what a plan holds. */
type PlanningOption =
  | 'firstMatch'
  | 'readVersions'
  | 'partial'
  | 'allowElision'
  | 'allowOutsideLinks'
  | 'mapScript'
  | 'onParsed'
  | 'fs'
  | 'formatCode'
  | 'formatTimeoutMs';

/** How the plan's files are formatted, or null when the host did not ask for it. */
function formatting(
  root: string,
  options: Pick<RunEditOptions, 'formatCode' | 'formatTimeoutMs'>,
  config: PatchsmithConfig | null,
): FormatPlanOptions | null {
  if (!options.formatCode || config === null) return null;
  return {
    root,
    entries: config.format ?? {},
    policy: config.policy,
    timeoutMs: options.formatTimeoutMs ?? FORMAT_TIMEOUT_MS,
  };
}

/** A plan of the whole tree, before it is offered to a host as an `EditPlan`. */
type WholeTreePlan =
  | { ok: true; plan: Plan; before: ReadonlyMap<string, FileState>; refused: EditError[] }
  | { ok: false; errors: EditError[] };

/** Parses and plans against a tree with no interrupted apply left, then formats what it writes. */
async function planWholeTree(
  input: EditInput,
  root: string,
  options: Pick<RunEditOptions, PlanningOption>,
  format: FormatPlanOptions | null,
): Promise<WholeTreePlan> {
  const planned = await planUnformatted(input, root, options);
  if (!planned.ok || format === null) return planned;
  return { ...planned, plan: await formatPlan(planned.plan, format) };
}

/** Parses and plans against a tree with no interrupted apply left. */
async function planUnformatted(
  input: EditInput,
  root: string,
  options: Pick<RunEditOptions, PlanningOption>,
): Promise<WholeTreePlan> {
  const read = parseInput(input);
  if (read.ok) options.onParsed?.(read.value);
  const parsed = read.ok && options.mapScript ? options.mapScript(read.value) : read;
  if (!parsed.ok) return parsed;
  // The links a git diff changes as links (mode 120000) are read as links, not through them.
  const files = await readFiles(root, touchedPaths(parsed.value, root), {
    ...fsOption(options.fs),
    links: linkPaths(parsed.value, root),
  });
  const planOptions = {
    root,
    firstMatch: options.firstMatch ?? false,
    allowElision: options.allowElision ?? false,
    allowOutsideLinks: options.allowOutsideLinks ?? false,
  };
  const { readVersions } = options;
  // Notebooks are planned by cell; one that changed since it was read is merged as text.
  const asText = changedSinceRead(readVersions, files, root);
  const plan = (script: EditScript): PlanResult =>
    planNotebooks(
      files,
      (shown) =>
        readVersions === undefined
          ? planEdits(script, shown, planOptions)
          : planAgainstReads(script, shown, planOptions, readVersions),
      asText,
    );
  if (options.partial) {
    const each = planEachFile(parsed.value, root, plan);
    return each.plan === null
      ? { ok: false, errors: each.errors }
      : { ok: true, plan: each.plan, before: files, refused: each.errors };
  }
  const planned = plan(parsed.value);
  if (planned.ok) return { ok: true, plan: planned.plan, before: files, refused: [] };
  // Commands have no patch text: a "patch line" would only mislead the model.
  return input.kind === 'edits' ? { ok: false, errors: planned.errors.map(withoutPatchLine) } : planned;
}

/** The error without its `line` (a line of the patch text the edit script was compiled from). */
function withoutPatchLine({ line: _, ...error }: EditError): EditError {
  return error;
}

async function runPipeline(input: EditInput, options: RunEditOptions): Promise<EditReport> {
  const root = resolve(options.root ?? process.cwd());
  const dryRun = options.dryRun ?? false;
  const { signal } = options;
  const progress = (stage: EditProgress['stage'], files: number) => options.onProgress?.({ stage, files });
  throwIfAborted(signal);
  const { fs } = options;
  const snapshot = options.snapshot ?? true;
  if (!dryRun && snapshot !== false && !isDiskFs(fs)) {
    return rejected([snapshotNeedsDisk('taking a snapshot')], dryRun);
  }
  progress('planning', 0);
  await recoverTransaction(root, fsOption(fs));
  // The rules are read once, before planning: what the patch writes cannot change them for this call.
  const config = await loadConfig(root, fs);
  if (!config.ok) return rejected(config.errors, dryRun);
  const { policy } = config.value;
  const planned = await planWholeTree(input, root, options, formatting(root, options, config.value));
  if (!planned.ok) return rejected(planned.errors, dryRun);
  const { plan, before: files, refused } = planned;
  // Some files left out under `partial`: never reported as a full success.
  const report: EditReport = {
    ok: refused.length === 0,
    ...(refused.length > 0 ? { partial: true } : {}),
    dryRun,
    // One record per file, not per operation: 200 edits of a file read as one line with its totals.
    files: perFile(plan.files),
    diagnostics: [],
    snapshot: null,
    errors: refused,
  };
  if (dryRun) {
    // A check says what the apply would say: the rules, the config's protection, read-only and
    // stale files are decided as the transaction decides them (asks are put at apply time).
    const checked = await checkPlan(plan, {
      root,
      ...fsOption(fs),
      policy,
      askApproved: true,
      allowConfigWrites: options.allowConfigWrites ?? false,
      allowOutsideLinks: options.allowOutsideLinks ?? false,
    });
    return checked.ok ? report : rejected(checked.errors, dryRun);
  }

  await checkAborted(signal);
  progress('asking', plan.files.length);
  const ask = options.ask ?? createPermissionGate({ policy });
  const answer = await ask(plan);
  await checkAborted(signal);
  if (answer === 'no' || typeof answer === 'object') return rejected([refusalError(answer, 'edit')], dryRun);

  // One lock across snapshot, apply and retiring a snapshot whose apply failed: no other apply slips in.
  const lockOptions = {
    ...fsOption(fs),
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
  };
  const applied = await withRootLock(
    root,
    async (lock) => {
      const applyOptions = {
        root,
        ...fsOption(fs),
        lock,
        policy,
        askApproved: true,
        allowConfigWrites: options.allowConfigWrites ?? false,
        allowOutsideLinks: options.allowOutsideLinks ?? false,
      };
      // Taken once the transaction's checks passed, before its first write: an apply refused
      // before then leaves nothing behind, not even a new store; a snapshot that cannot be
      // recorded fails the apply before it writes.
      const snapshotted = await wantsSnapshot(root, snapshot, fs);
      // The commit point: the last look at the signal is after the snapshot, just before the writes.
      const beforeFirstWrite = async (checked: Plan) => {
        await checkAborted(signal);
        if (snapshotted) report.snapshot = await takeSnapshot(root, checked);
        await checkAborted(signal);
        progress('writing', plan.files.length);
      };
      const result = await applyPlan(plan, { ...applyOptions, beforeFirstWrite });
      if (!result.ok && report.snapshot) await retireSnapshot(root, report.snapshot);
      return result;
    },
    lockOptions,
  );
  if (!applied.ok) return rejected(applied.errors, dryRun);

  if (options.diagnose) {
    progress('diagnosing', plan.files.length);
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
