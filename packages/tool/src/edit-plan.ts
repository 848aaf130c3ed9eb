import { hashBytes } from '@patchsmith/core';
import { type ReviewedFile, reviewedFile } from '@patchsmith/formatter';
import type { Plan } from '@patchsmith/planner';
import type { EditInput } from './edit-input.js';
import { type ReadVersions, readVersionHash } from './read-versions.js';

/**
 * A plan a host can keep, show and send (it is plain JSON): what `applyPlanned` applies exactly,
 * or refuses with `STALE`. `fingerprint` is the state of every file the plan read (sha256 of its
 * bytes and its mode, `missing`, `directory`); `id` is a hash of the root, the fingerprint and
 * every write's result, so the same edit of the same files has the same id.
 */
export interface EditPlan {
  version: 1;
  id: string;
  /** The absolute root the plan was made in. */
  root: string;
  input: EditInput;
  firstMatch: boolean;
  /**
   * The other planning options the plan was made with, so that applying it plans it the same way:
   * the versions the model read are kept by hash only (their content is recalled from the host's
   * `readVersions` or from what `viewFile` showed in this process).
   */
  planning: PlanningOptions;
  fingerprint: Record<string, string>;
  /** What a review screen shows: each operation with its unified diff. */
  files: PlanFile[];
}

/** The options besides `firstMatch` that shape a plan. */
export interface PlanningOptions {
  allowElision: boolean;
  partial: boolean;
  /**
   * Whether the project's formatter ran on what the plan writes: applying it formats the same way,
   * so the diff a review screen showed is what lands. Absent in plans made before it was recorded (false).
   */
  formatCode?: boolean;
  /** By path, the sha256 hex of each version the model read; null when the host gave none. */
  readHashes: Record<string, string> | null;
}

/** The planning options a plan records, from the ones it was made with. */
export function planningOf(options: {
  allowElision?: boolean;
  partial?: boolean;
  formatCode?: boolean;
  readVersions?: ReadVersions;
}): PlanningOptions {
  const { readVersions } = options;
  const readHashes =
    readVersions === undefined
      ? null
      : Object.fromEntries(
          Object.entries(readVersions).map(([path, version]) => [path, readVersionHash(version)]),
        );
  return {
    allowElision: options.allowElision ?? false,
    partial: options.partial ?? false,
    formatCode: options.formatCode ?? false,
    readHashes,
  };
}

/** One operation of an `EditPlan`, as a review screen shows it. */
export type PlanFile = ReviewedFile;

const sha256 = (data: string | Uint8Array) =>
  hashBytes(typeof data === 'string' ? new TextEncoder().encode(data) : data);

/**
 * The fingerprint of the files a plan read: each path it writes, with the content hash and mode it
 * found (`missing` for a path that did not exist), in path order.
 */
export function fingerprintOf(plan: Plan): Record<string, string> {
  const marks = plan.writes.map((w): [string, string] => [
    w.path,
    w.before === null ? 'missing' : `${w.before.hash} ${w.before.mode.toString(8)}`,
  ]);
  return Object.fromEntries(marks.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The id of a plan: its root, what it read and what each write leaves. */
export function planId(root: string, fingerprint: Record<string, string>, plan: Plan): string {
  const writes = plan.writes.map((w) => [
    w.path,
    w.after === null ? null : `${sha256(w.after.bytes)} ${w.after.mode.toString(8)}`,
  ]);
  return sha256(JSON.stringify([root, fingerprint, writes]));
}

/** What a review screen shows of a plan. */
export function planFiles(plan: Plan): PlanFile[] {
  return plan.files.map(reviewedFile);
}

/** The serialisable plan of a `planEdit` result. */
export function editPlanOf(
  input: EditInput,
  root: string,
  firstMatch: boolean,
  planning: PlanningOptions,
  plan: Plan,
): EditPlan {
  const fingerprint = fingerprintOf(plan);
  return {
    version: 1,
    id: planId(root, fingerprint, plan),
    root,
    input,
    firstMatch,
    planning,
    fingerprint,
    files: planFiles(plan),
  };
}
