import type { DeleteFile, EditError, LineModel, UpdateFile } from '@patchsmith/core';
import { alreadyAppliedError, chunksAlreadyApplied } from './already-applied.js';
import { applyChunks, type LocateSettings } from './apply-chunks.js';
import { type DescribedChange, describeChange, describeRegions } from './diff.js';
import type { OpOutcome } from './outcome.js';
import { fileRequired, type PlanState, writeRefused } from './state.js';
import type { ChunkReport, PlannedFile } from './types.js';

export interface UpdateTarget {
  /** Canonical path of the file updated. */
  path: string;
  /** Canonical move destination, when it differs from `path` (a move onto itself is a plain update). */
  movePath?: string;
}

/**
 * `*** Update File` (with an optional `*** Move to`): applies the chunks to the planned content.
 * A pure rename keeps the bytes as they are, so binary files can be moved; a move keeps the mode
 * (unless the op sets one) and overwrites its destination. A copy (git's `copy from`/`copy to`)
 * writes the destination and leaves the source.
 */
export function planUpdate(
  op: UpdateFile,
  target: UpdateTarget,
  state: PlanState,
  options: LocateSettings,
): OpOutcome {
  const { path, movePath } = target;
  const paths = movePath === undefined ? [path] : [path, movePath];
  const source = state.get(path);
  const errors: EditError[] = [];
  const sourceRefused = fileRequired(source, path, op.line);
  if (sourceRefused !== null) for (const error of sourceRefused) errors.push(error);
  if (movePath !== undefined) {
    const destinationRefused = writeRefused(state.get(movePath), movePath, op.line, state);
    if (destinationRefused !== null) for (const error of destinationRefused) errors.push(error);
  }
  if (sourceRefused !== null || source.kind !== 'file' || errors.length > 0)
    return { ok: false, errors, paths };

  let bytes = source.bytes;
  let chunks: ChunkReport[] = [];
  let described: ((destination: string) => DescribedChange) | undefined;
  if (op.chunks.length > 0) {
    const text = state.decode(source.bytes);
    if (text === null) {
      const message = `cannot update ${path}: it is not a UTF-8 text file (binary content or a NUL byte)`;
      return { ok: false, errors: [{ code: 'BINARY_FILE', message, path, line: op.line }], paths };
    }
    const marker = finalNewlineContradiction(op, text.lines, path);
    if (marker !== null) return { ok: false, errors: [marker], paths };
    const located = { path, ...options, ...(op.exactEndings ? { exactEndings: true } : {}) };
    const applied = applyChunks(text.lines, op.chunks, {
      ...located,
      ...(op.finalNewline !== undefined ? { finalNewline: op.finalNewline } : {}),
    });
    if (!applied.ok) {
      if (
        applied.errors.some((e) => e.code === 'NO_MATCH') &&
        chunksAlreadyApplied(text.lines, op.chunks, located)
      )
        return { ok: false, errors: [alreadyAppliedError(path, op.line)], paths, alreadyApplied: true };
      return { ok: false, errors: applied.errors, paths };
    }
    const { content, regions } = applied;
    bytes = state.encodeSpliced(text.bom, content, source.bytes);
    chunks = applied.reports;
    // Diffed where the edits are, when the new text reads back as the lines they wrote.
    if (regions !== null && content.readsBack(text.bom)) {
      const finalNewline = content.length === 0 || content.endsWithLineBreak();
      described = (destination) => describeRegions(path, destination, text.lines, regions, finalNewline);
    }
  }

  const mode = op.mode ?? source.mode;
  if (op.copy && movePath !== undefined) return copied(movePath, state, bytes, mode, chunks);
  const destination = movePath ?? path;
  const change =
    described?.(destination) ??
    describeChange(path, destination, source.bytes, bytes, (b) => state.decode(b));
  const file: PlannedFile =
    movePath === undefined
      ? { path, op: 'update', ...change, chunks }
      : { path, op: 'move', movePath, ...change, chunks };
  const written = { kind: 'file' as const, bytes, mode };
  return {
    ok: true,
    file,
    changes:
      movePath === undefined
        ? [[path, written]]
        : [
            [path, { kind: 'missing' }],
            [movePath, written],
          ],
  };
}

/** A copy reads as the new file it makes: the source stays as it is. */
function copied(
  destination: string,
  state: PlanState,
  bytes: Uint8Array,
  mode: number,
  chunks: ChunkReport[],
): OpOutcome {
  const existing = state.get(destination);
  const before = existing.kind === 'file' ? existing.bytes : null;
  const change = describeChange(destination, destination, before, bytes, (b) => state.decode(b));
  return {
    ok: true,
    file: { path: destination, op: 'add', ...change, chunks },
    changes: [[destination, { kind: 'file', bytes, mode }]],
  };
}

/**
 * A unified diff's `\ No newline at end of file` after a context or removed line says the file
 * ends without a newline; a file that ends with one is not the file the patch was made against.
 */
export function finalNewlineContradiction(
  op: Pick<UpdateFile | DeleteFile, 'oldNoNewline'>,
  lines: LineModel,
  path: string,
): EditError | null {
  if (op.oldNoNewline === undefined || lines.length === 0 || !lines.hasFinalNewline()) return null;
  return {
    code: 'NO_MATCH',
    message:
      `${path}: the patch says the file does not end with a newline ('\\ No newline at end of file' ` +
      `on line ${op.oldNoNewline}), but it does: the patch was not made against this file`,
    path,
    line: op.oldNoNewline,
  };
}
