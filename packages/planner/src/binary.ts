import { type BinaryHunk, type BinaryPatch, type EditError, gitBlobId, isNullBlobId } from '@patchsmith/core';
import { describeChange } from './diff.js';
import { applyGitDelta } from './git-delta.js';
import type { OpOutcome } from './outcome.js';
import { fileRequired, type PlanState, type Slot, writeRefused } from './state.js';
import type { FileOp } from './types.js';
import type { UpdateTarget } from './update.js';

const NEW_FILE_MODE = 0o644;
const EMPTY = new Uint8Array(0);

type Bytes = { ok: true; bytes: Uint8Array } | { ok: false; error: EditError };

/**
 * A `GIT binary patch`, as `git apply` checks it: the file must be the blob the index line names
 * (STALE otherwise), the forward hunk gives the new bytes (a literal, or a delta over the old
 * bytes), the result must be the index line's new blob, and git's reverse hunk must give the old
 * bytes back. A created file must not exist with other content; a deleted one must end empty.
 */
export function planBinary(op: BinaryPatch, target: UpdateTarget, state: PlanState): OpOutcome {
  const { path, movePath } = target;
  const paths = movePath === undefined ? [path] : [path, movePath];
  const fail = (errors: EditError[]): OpOutcome => ({ ok: false, errors, paths });
  const source = state.get(path);
  const refused =
    op.change === 'add' ? writeRefused(source, path, op.line, state) : fileRequired(source, path, op.line);
  if (refused !== null) return fail(refused);
  if (movePath !== undefined) {
    const destination = writeRefused(state.get(movePath), movePath, op.line, state);
    if (destination !== null) return fail(destination);
  }
  const existing = source.kind === 'file' ? source : null;
  const base = op.change === 'add' ? EMPTY : existing!.bytes;
  const stale = staleBase(op, path, base);
  if (stale !== null) return fail([stale]);
  const result = runHunk(op.forward, base, path);
  if (!result.ok) return fail([result.error]);
  const checked = checkResult(op, path, base, result.bytes);
  if (checked !== null) return fail([checked]);
  if (
    op.change === 'add' &&
    existing !== null &&
    !Buffer.from(existing.bytes).equals(Buffer.from(result.bytes))
  ) {
    return fail([existsAlready(path, op.line)]);
  }
  if (op.change === 'delete') {
    const change = describeChange(path, path, base, null, (b) => state.decode(b));
    return {
      ok: true,
      file: { path, op: 'delete', ...change, chunks: [] },
      changes: [[path, { kind: 'missing' }]],
    };
  }
  const written: Slot = {
    kind: 'file',
    bytes: result.bytes,
    mode: op.mode ?? existing?.mode ?? NEW_FILE_MODE,
  };
  const destination = movePath ?? path;
  const copy = op.copy === true && movePath !== undefined;
  const before = copy ? state.get(destination) : existing;
  const change = describeChange(
    copy ? destination : path,
    destination,
    before?.kind === 'file' ? before.bytes : null,
    result.bytes,
    (b) => state.decode(b),
  );
  const kind: FileOp = op.change === 'add' || copy ? 'add' : movePath === undefined ? 'update' : 'move';
  const file = {
    path: copy ? destination : path,
    op: kind,
    ...(kind === 'move' ? { movePath } : {}),
    ...change,
    chunks: [],
  };
  const changes: Array<[string, Slot]> =
    movePath === undefined || copy
      ? [[destination, written]]
      : [
          [path, { kind: 'missing' }],
          [movePath, written],
        ];
  return { ok: true, file, changes };
}

/** The hunk's bytes over `base`: a literal as it is, a delta applied (its faults as errors). */
function runHunk(hunk: BinaryHunk, base: Uint8Array, path: string): Bytes {
  if (hunk.method === 'literal') return { ok: true, bytes: hunk.data };
  const applied = applyGitDelta(base, hunk.data);
  if (applied.ok) return applied;
  const error: EditError = applied.wrongBase
    ? {
        code: 'STALE',
        message: `${path} is not the file the binary patch was made from: ${applied.reason}`,
        path,
        line: hunk.line,
      }
    : {
        code: 'PARSE_ERROR',
        message: `line ${hunk.line}: the binary delta for ${path} is corrupt: ${applied.reason}`,
        path,
        line: hunk.line,
      };
  return { ok: false, error };
}

/** STALE when the index line names an old blob that the file (or its absence) is not. */
function staleBase(op: BinaryPatch, path: string, base: Uint8Array): EditError | null {
  if (op.oldId === undefined || op.change === 'add' || isNullBlobId(op.oldId)) return null;
  const actual = gitBlobId(base);
  if (actual.startsWith(op.oldId)) return null;
  return {
    code: 'STALE',
    message:
      `${path} is not the file the binary patch was made from: it is blob ${actual.slice(0, 12)}, ` +
      `the patch's index line says ${op.oldId.slice(0, 12)}`,
    path,
    line: op.line,
  };
}

/**
 * Why the result cannot be trusted: it is not the index line's new blob, a deletion leaves bytes,
 * or git's reverse hunk does not lead back to the old bytes. Null when it checks out.
 */
function checkResult(op: BinaryPatch, path: string, base: Uint8Array, result: Uint8Array): EditError | null {
  const corrupt = (why: string): EditError => ({
    code: 'PARSE_ERROR',
    message: `line ${op.forward.line}: the binary patch for ${path} is corrupt: ${why}`,
    path,
    line: op.forward.line,
  });
  if (op.change === 'delete' && result.length > 0)
    return corrupt(`a deleted file's forward hunk leaves ${result.length} bytes`);
  if (op.newId !== undefined && op.change !== 'delete' && !gitBlobId(result).startsWith(op.newId)) {
    return corrupt(`its result is not blob ${op.newId.slice(0, 12)}, which its index line names`);
  }
  if (op.reverse === undefined) return null;
  const back = runHunk(op.reverse, result, path);
  if (back.ok && Buffer.from(back.bytes).equals(Buffer.from(base))) return null;
  // Without an index line the reverse hunk is what tells which file the patch was made from.
  if (op.oldId === undefined) {
    return {
      code: 'STALE',
      message: `${path} is not the file the binary patch was made from: its reverse hunk does not give the file's bytes back`,
      path,
      line: op.reverse.line,
    };
  }
  return corrupt('its reverse hunk does not give the old bytes back');
}

/** A created file that exists with other content. */
function existsAlready(path: string, line: number): EditError {
  return {
    code: 'STALE',
    message: `${path} already exists with other content: the binary patch creates it (delete or rename it first)`,
    path,
    line,
  };
}
