import { join } from 'node:path';
import { type EditError, type EditScript, hashBytes } from '@patchsmith/core';
import {
  describeChange,
  type FileState,
  type MergeConflict,
  type Plan,
  type PlannedFile,
  type PlanOptions,
  type PlanResult,
  planEdits,
  resolvePatchPath,
  threeWayMerge,
} from '@patchsmith/planner';
import { type ReadVersions, resolveReadVersion } from './read-versions.js';

type PresentFile = Extract<FileState, { kind: 'file' }>;

/** A file the edit touches that changed since the model read it: what it read, and what is there now. */
interface StaleFile {
  path: string;
  base: Uint8Array;
  now: PresentFile;
  nowHash: string;
}

/** Lines of each side a conflict report shows at most. */
const SHOWN_LINES = 12;

const stale = (path: string, message: string, line?: number): EditError => ({
  code: 'STALE',
  message,
  path,
  ...(line === undefined ? {} : { line }),
});

/** A region's lines for a message, indented, cut after a few. */
function quoted(label: string, lines: readonly string[]): string[] {
  const shown = lines.slice(0, SHOWN_LINES).map((line) => `    ${line}`);
  const more = lines.length > SHOWN_LINES ? [`    … ${lines.length - SHOWN_LINES} more line(s)`] : [];
  return [`  ${label}${lines.length === 0 ? ' (nothing)' : ':'}`, ...shown, ...more];
}

/** A conflict as the model reads it: the region of the version it read, then the three versions of it. */
function conflictError(path: string, conflict: MergeConflict): EditError {
  const span =
    conflict.readEnd < conflict.readStart
      ? `at line ${conflict.readStart}`
      : `lines ${conflict.readStart}-${conflict.readEnd}`;
  return stale(
    path,
    [
      `${path} changed since it was read, and the edit changes the same lines (${span} of the version read, line ${conflict.line} now); re-read the file and edit it again`,
      ...quoted('as read', conflict.base),
      ...quoted('the edit made them', conflict.ours),
      ...quoted('the file now has', conflict.theirs),
    ].join('\n'),
    conflict.line,
  );
}

/**
 * The touched files whose content is not what the model read, with the version it read; a file
 * that changed with that version unknown, or that is gone, is `STALE` (nothing can be merged).
 */
function staleFiles(
  readVersions: ReadVersions,
  files: ReadonlyMap<string, FileState>,
  root: string,
): { ok: true; stale: StaleFile[] } | { ok: false; errors: EditError[] } {
  const found: StaleFile[] = [];
  const errors: EditError[] = [];
  for (const [named, version] of Object.entries(readVersions)) {
    const resolved = resolvePatchPath(root, named);
    if (!resolved.ok) {
      errors.push({ code: resolved.code, message: resolved.message, path: named });
      continue;
    }
    const path = resolved.path;
    const now = files.get(path);
    // Only the files the edit touches matter; a refused one is reported by the planner.
    if (now === undefined || now.kind === 'refused') continue;
    if (now.kind !== 'file') {
      errors.push(stale(path, `${path} was read, but it is no longer a file; re-read it before editing`));
      continue;
    }
    const read = resolveReadVersion(join(root, path), version);
    const nowHash = now.hash ?? hashBytes(now.bytes);
    if (read.hash === nowHash) continue;
    if (read.bytes === undefined) {
      errors.push(
        stale(
          path,
          `${path} changed since it was read, and the version read is not known here (only its hash); pass the content that was read to merge the edit, or re-read the file`,
        ),
      );
      continue;
    }
    found.push({ path, base: read.bytes, now, nowHash });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, stale: found };
}

/** The plan's one plain update of `path` (its write and its report), or null for a delete, a move or none. */
function updateOf(plan: Plan, path: string) {
  const files = plan.files.filter((f) => f.path === path || f.movePath === path);
  const writes = plan.writes.filter((w) => w.path === path);
  const file = files[0];
  const write = writes[0];
  if (files.length !== 1 || writes.length !== 1 || file?.op !== 'update' || write?.after == null) return null;
  return { file, write: { ...write, after: write.after } };
}

/**
 * Plans an edit against the versions the model read: each touched file that changed since is
 * planned as it was read, and the edit's result is merged (diff3) into the file as it is now. A
 * clean merge is what the plan writes, its diff against the file now, with `merged` saying where
 * each change landed; a conflict is `STALE` with the regions, and nothing is written. The plan's
 * before states are the files now, so the transaction still refuses a file changed since.
 */
export function planAgainstReads(
  script: EditScript,
  files: ReadonlyMap<string, FileState>,
  options: PlanOptions,
  readVersions: ReadVersions,
): PlanResult {
  const found = staleFiles(readVersions, files, options.root);
  if (!found.ok) return found;
  if (found.stale.length === 0) return planEdits(script, files, options);
  const asRead = new Map(files);
  for (const s of found.stale) asRead.set(s.path, { ...s.now, bytes: s.base, hash: hashBytes(s.base) });
  const planned = planEdits(script, asRead, options);
  if (!planned.ok) return planned;
  const errors: EditError[] = [];
  const replaced = new Map<string, { file: PlannedFile | null; write: Plan['writes'][number] | null }>();
  for (const s of found.stale) {
    const update = updateOf(planned.plan, s.path);
    if (update === null) {
      errors.push(
        stale(
          s.path,
          `${s.path} changed since it was read; only edits inside a file are merged, not a delete or a move`,
        ),
      );
      continue;
    }
    const merged = threeWayMerge(s.base, update.write.after.bytes, s.now.bytes);
    if (!merged.ok) {
      if (merged.reason === 'binary')
        errors.push(stale(s.path, `${s.path} changed since it was read and is not text`));
      else for (const conflict of merged.conflicts) errors.push(conflictError(s.path, conflict));
      continue;
    }
    const unchanged =
      Buffer.from(merged.bytes).equals(Buffer.from(s.now.bytes)) && update.write.after.mode === s.now.mode;
    // The file now already holds the edit's change (someone made it): nothing to write there.
    if (unchanged) {
      replaced.set(s.path, { file: null, write: null });
      continue;
    }
    const described = describeChange(s.path, s.path, s.now.bytes, merged.bytes);
    replaced.set(s.path, {
      file: { ...update.file, ...described, merged: { moved: merged.moved } },
      write: {
        ...update.write,
        before: { hash: s.nowHash, mode: s.now.mode, bytes: s.now.bytes },
        after: { bytes: merged.bytes, mode: update.write.after.mode },
      },
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  const plan: Plan = {
    files: planned.plan.files.flatMap((f) => {
      const r = replaced.get(f.path);
      return r === undefined ? [f] : r.file === null ? [] : [r.file];
    }),
    writes: planned.plan.writes.flatMap((w) => {
      const r = replaced.get(w.path);
      return r === undefined ? [w] : r.write === null ? [] : [r.write];
    }),
  };
  if (plan.writes.length === 0) {
    const names = found.stale.map((s) => s.path).join(', ');
    return {
      ok: false,
      errors: [
        {
          code: 'EMPTY_PATCH',
          message: `the edit changes nothing: ${names} changed since it was read and already holds what the edit writes`,
        },
      ],
    };
  }
  return { ok: true, plan };
}
