import { resolve } from 'node:path';
import { CONFIG_FILE, type EditError, loadConfig, PatchsmithError } from '@patchsmith/core';
import type { EditReport } from '@patchsmith/formatter';
import type { Plan } from '@patchsmith/planner';
import { type EditPlan, fingerprintOf, type PlanningOptions, planFiles, planId } from './edit-plan.js';
import { type AskPermission, createPermissionGate } from './permission.js';
import { type ReadVersions, readVersionHash } from './read-versions.js';
import { type RunEditOptions, runEdit } from './run-edit.js';

/**
 * `runEdit`'s options but those the plan fixes (its root is the plan's; give `root` only to check
 * it). `readVersions` may give back the content of the versions the plan names by hash; they
 * must be the same versions.
 */
export type ApplyPlannedOptions = Omit<
  RunEditOptions,
  'dryRun' | 'firstMatch' | 'allowElision' | 'partial' | 'formatCode'
>;

function rejected(errors: EditError[]): EditReport {
  return { ok: false, dryRun: false, files: [], diagnostics: [], snapshot: null, errors };
}

const isRecordOf = (value: unknown, isEntry: (entry: unknown) => boolean) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isEntry);

/** Planning options shaped as `planEdit` records them. */
function isPlanning(value: unknown): value is PlanningOptions {
  const planning = value as Partial<PlanningOptions> | null;
  return (
    typeof planning === 'object' &&
    planning !== null &&
    typeof planning.allowElision === 'boolean' &&
    typeof planning.partial === 'boolean' &&
    (planning.formatCode === undefined || typeof planning.formatCode === 'boolean') &&
    (planning.readHashes === null || isRecordOf(planning.readHashes, (h) => typeof h === 'string'))
  );
}

/** A value shaped like an `EditPlan` (it may come back from JSON a host kept, or from anyone). */
function isEditPlan(value: unknown): value is EditPlan {
  const plan = value as Partial<EditPlan> | null;
  return (
    typeof plan === 'object' &&
    plan !== null &&
    plan.version === 1 &&
    typeof plan.id === 'string' &&
    typeof plan.root === 'string' &&
    typeof plan.firstMatch === 'boolean' &&
    isPlanning(plan.planning) &&
    typeof plan.input === 'object' &&
    plan.input !== null &&
    typeof plan.fingerprint === 'object' &&
    plan.fingerprint !== null &&
    Array.isArray(plan.files)
  );
}

/** The paths whose state differs between two fingerprints (changed, gone or new), in order. */
function changedPaths(was: Record<string, string>, now: Record<string, string>): string[] {
  const paths = new Set([...Object.keys(was), ...Object.keys(now)]);
  return [...paths].filter((p) => was[p] !== now[p]).sort();
}

/**
 * Throws unless the plan made now is the approved one: the same files in the same state (`STALE`,
 * naming what changed), the same result and the same diffs as were shown (`INVALID_EDIT`: a plan
 * whose parts do not agree was not made by `planEdit`).
 */
function expectSamePlan(approved: EditPlan, fresh: Plan): void {
  const changed = changedPaths(approved.fingerprint, fingerprintOf(fresh));
  if (changed.length > 0) {
    throw new PatchsmithError(
      'STALE',
      `changed since the plan was made: ${changed.join(', ')}; plan the edit again`,
      { path: changed[0]! },
    );
  }
  const shownSame = JSON.stringify(planFiles(fresh)) === JSON.stringify(approved.files);
  if (planId(approved.root, approved.fingerprint, fresh) !== approved.id || !shownSame) {
    throw new PatchsmithError(
      'INVALID_EDIT',
      'the plan does not match what its own input makes; plan the edit again',
    );
  }
}

/**
 * Applies exactly the plan `planEdit` made (`planned.edit`, kept as JSON or not): the edit is
 * planned again and written only when it finds every file as the plan did and makes the same
 * result, so what an approval screen showed is what gets written. Otherwise `STALE` naming the
 * files that changed; a plan whose parts disagree is `INVALID_EDIT`. Every rule of `runEdit`
 * holds: the permission gate (`ask`, default: the root's rules) is asked, the transaction checks
 * the files again under its lock.
 */
export async function applyPlanned(edit: EditPlan, options: ApplyPlannedOptions = {}): Promise<EditReport> {
  if (!isEditPlan(edit)) {
    return rejected([{ code: 'INVALID_EDIT', message: 'not a plan made by planEdit (version 1)' }]);
  }
  const root = resolve(edit.root);
  if (options.root !== undefined && resolve(options.root) !== root) {
    return rejected([
      { code: 'INVALID_EDIT', message: `the plan was made for ${root}, not for ${resolve(options.root)}` },
    ]);
  }
  const readVersions = readVersionsOf(edit.planning, options.readVersions);
  if (!readVersions.ok) return rejected(readVersions.errors);
  let planned = false;
  const gate: AskPermission = async (fresh) => {
    planned = true;
    expectSamePlan(edit, fresh);
    if (options.ask) return options.ask(fresh);
    // runEdit read the same rules a moment ago and stopped on a broken config before asking.
    const config = await loadConfig(root, options.fs);
    if (!config.ok) throw new PatchsmithError(config.errors[0]!.code, config.errors[0]!.message);
    return createPermissionGate({ policy: config.value.policy })(fresh);
  };
  const { allowElision, partial } = edit.planning;
  const report = await runEdit(edit.input, {
    ...options,
    root,
    firstMatch: edit.firstMatch,
    allowElision,
    partial,
    formatCode: edit.planning.formatCode ?? false,
    ...(readVersions.value === undefined ? {} : { readVersions: readVersions.value }),
    ask: gate,
  });
  return planned || report.ok || !failedToPlan(report) ? report : staleReport(report);
}

/**
 * The read versions to plan with: the host's, when it gives them, which must be the ones the plan
 * was made against; else the plan's own hashes (their content recalled from this process's views).
 */
function readVersionsOf(
  planning: PlanningOptions,
  given: ReadVersions | undefined,
): { ok: true; value: ReadVersions | undefined } | { ok: false; errors: EditError[] } {
  const { readHashes } = planning;
  if (given === undefined) {
    const value =
      readHashes === null
        ? undefined
        : Object.fromEntries(Object.entries(readHashes).map(([p, hash]) => [p, { hash }]));
    return { ok: true, value };
  }
  const givenHashes = Object.entries(given).map(([p, version]) => [p, readVersionHash(version)] as const);
  const same =
    readHashes !== null &&
    givenHashes.length === Object.keys(readHashes).length &&
    givenHashes.every(([p, hash]) => Object.hasOwn(readHashes, p) && readHashes[p] === hash);
  if (same) return { ok: true, value: given };
  return {
    ok: false,
    errors: [
      { code: 'INVALID_EDIT', message: 'readVersions differ from the versions the plan was made against' },
    ],
  };
}

/** A report of an edit that planned once and no longer does: its files changed since. */
function failedToPlan(report: EditReport): boolean {
  return report.errors.every((e) => e.code !== 'ABORTED' && e.path !== CONFIG_FILE);
}

/** The planning errors of a plan that no longer applies, after the `STALE` that explains them. */
function staleReport(report: EditReport): EditReport {
  const stale: EditError = {
    code: 'STALE',
    message: 'the files changed since the plan was made, and the edit no longer applies; plan it again',
  };
  return rejected([stale, ...report.errors]);
}
