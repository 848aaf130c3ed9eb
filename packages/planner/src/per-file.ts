import type { PlannedFile } from './types.js';

/**
 * A plan's records as a report lists them: one per file. A plan has one record per operation, so
 * 200 str_replace edits of one file are 200 records; here the updates of one path (no move, and
 * no other operation on the path in between) become one record with their totals. Its diff is
 * theirs one after the other, each against what the one before left (as a patch with several
 * sections for one file, which `git apply` and `patch` apply in order); its chunks are numbered
 * on across them, so "chunk k" is the file's k-th located chunk or edit.
 */
export function perFile(files: readonly PlannedFile[]): PlannedFile[] {
  const out: PlannedFile[] = [];
  /** Path -> index in `out` of its record while further updates may join it. */
  const open = new Map<string, number>();
  for (const file of files) {
    const at = isPlainUpdate(file) ? open.get(file.path) : undefined;
    if (at === undefined) {
      for (const path of namesOf(file)) open.delete(path);
      if (isPlainUpdate(file)) open.set(file.path, out.length);
      // A copy: later updates are added to it, and the plan's records stay as they are.
      out.push({ ...file, chunks: file.chunks.slice() });
      continue;
    }
    join(out[at]!, file);
  }
  return out;
}

/** An update of a file in place (a move names a second path, and reads as its own line). */
function isPlainUpdate(file: PlannedFile): boolean {
  return file.op === 'update' && file.movePath === undefined;
}

function namesOf(file: PlannedFile): string[] {
  return file.movePath === undefined ? [file.path] : [file.path, file.movePath];
}

/** Adds a later update of the file to its record. */
function join(record: PlannedFile, next: PlannedFile): void {
  const offset = record.chunks.length;
  record.additions += next.additions;
  record.deletions += next.deletions;
  record.diff += next.diff;
  for (const c of next.chunks) record.chunks.push({ ...c, chunk: c.chunk + offset });
}
