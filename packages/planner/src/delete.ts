import type { DeleteFile, EditError } from '@patchsmith/core';
import { applyChunks, type LocateSettings } from './apply-chunks.js';
import { describeChange } from './diff.js';
import type { OpOutcome } from './outcome.js';
import { fileRequired, type PlanState } from './state.js';
import { finalNewlineContradiction } from './update.js';

/**
 * `*** Delete File`: removes an existing file, text or binary. A unified diff's deletion carries
 * the hunks that remove the file's lines: they must match and leave nothing (git refuses a
 * "removal patch [that] leaves file contents"), so a deletion written against another file, or
 * covering only part of it, never deletes the whole.
 */
export function planDelete(
  op: DeleteFile,
  path: string,
  state: PlanState,
  locate: LocateSettings,
): OpOutcome {
  const slot = state.get(path);
  const refused = fileRequired(slot, path, op.line);
  if (refused !== null || slot.kind !== 'file') return { ok: false, errors: refused ?? [], paths: [path] };
  if (op.chunks !== undefined && op.chunks.length > 0) {
    const leftover = removalLeftover(op, path, slot.bytes, state, locate);
    if (leftover.length > 0) return { ok: false, errors: leftover, paths: [path] };
  }
  const change = describeChange(path, path, slot.bytes, null, (b) => state.decode(b));
  return {
    ok: true,
    file: { path, op: 'delete', ...change, chunks: [] },
    changes: [[path, { kind: 'missing' }]],
  };
}

/** Why the deletion's hunks do not remove exactly the file: their errors, or the lines they leave. */
function removalLeftover(
  op: DeleteFile,
  path: string,
  bytes: Uint8Array,
  state: PlanState,
  locate: LocateSettings,
): EditError[] {
  const text = state.decode(bytes);
  if (text === null) {
    const message = `cannot check the deletion of ${path} against its hunks: it is not a UTF-8 text file`;
    return [{ code: 'BINARY_FILE', message, path, line: op.line }];
  }
  const marker = finalNewlineContradiction(op, text.lines, path);
  if (marker !== null) return [marker];
  const applied = applyChunks(text.lines, op.chunks ?? [], { path, ...locate });
  if (!applied.ok) return applied.errors;
  const left = applied.count;
  if (left === 0) return [];
  return [
    {
      code: 'NO_MATCH',
      message:
        `${path}: removal patch leaves file contents: the deletion's hunks remove ${text.lines.length - left} ` +
        `of its ${text.lines.length} lines; a deletion must remove every line (or edit the file instead)`,
      path,
      line: op.line,
    },
  ];
}
