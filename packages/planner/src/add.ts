import type { AddFile, EditError } from '@patchsmith/core';
import { describeAddedText } from './added-diff.js';
import { describeChange } from './diff.js';
import type { OpOutcome } from './outcome.js';
import { type PlanState, writeRefused } from './state.js';

const NEW_FILE_MODE = 0o644;
const encoder = new TextEncoder();

/** The text an Add writes: its lines joined by LF, with a final LF when there is at least one line. */
function addedText(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * `*** Add File`: creates the file, or overwrites an existing one keeping its mode (as the reference
 * does). Exact `content` (str_replace `create`, a unified diff's new file) is written as given, and
 * an explicit `mode` (a unified diff's `new file mode`) is set.
 */
export function planAdd(op: AddFile, path: string, state: PlanState): OpOutcome {
  const slot = state.get(path);
  const refused = writeRefused(slot, path, op.line, state);
  if (refused !== null) return { ok: false, errors: refused, paths: [path] };
  const existing = slot.kind === 'file' ? slot : null;
  if (op.createOnly && existing !== null)
    return { ok: false, errors: [alreadyExists(path, op.line)], paths: [path] };
  const text = op.content ?? addedText(op.lines);
  const bytes = encoder.encode(text);
  const mode = op.mode ?? existing?.mode ?? NEW_FILE_MODE;
  // A new file's diff comes from its text; only an overwrite is diffed against what was there.
  const change =
    (existing === null ? describeAddedText(path, text) : null) ??
    describeChange(path, path, existing?.bytes ?? null, bytes, (b) => state.decode(b));
  return {
    ok: true,
    file: { path, op: 'add', ...change, chunks: [] },
    changes: [[path, { kind: 'file', bytes, mode }]],
  };
}

/** A create-only Add (an empty `old_str`) of a file that is already there. */
function alreadyExists(path: string, line: number): EditError {
  return {
    code: 'INVALID_EDIT',
    message: `${path} already exists: an empty old_str only creates a new file; give the text to replace, or use "create" to overwrite it`,
    path,
    line,
  };
}
