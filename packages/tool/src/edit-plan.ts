import { createHash } from 'node:crypto';
import type { Plan } from '@patchsmith/planner';
import type { EditInput } from './edit-input.js';

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
  fingerprint: Record<string, string>;
  /** What a review screen shows: each operation with its unified diff. */
  files: PlanFile[];
}

/** One operation of an `EditPlan`, as a review screen shows it. */
export interface PlanFile {
  path: string;
  op: string;
  movePath?: string;
  additions: number;
  deletions: number;
  diff: string;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

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
  return plan.files.map((f) => ({
    path: f.path,
    op: f.op,
    ...(f.movePath !== undefined ? { movePath: f.movePath } : {}),
    additions: f.additions,
    deletions: f.deletions,
    diff: f.diff,
  }));
}

/** The serialisable plan of a `planEdit` result. */
export function editPlanOf(input: EditInput, root: string, firstMatch: boolean, plan: Plan): EditPlan {
  const fingerprint = fingerprintOf(plan);
  return {
    version: 1,
    id: planId(root, fingerprint, plan),
    root,
    input,
    firstMatch,
    fingerprint,
    files: planFiles(plan),
  };
}
