/**
 * Prints an edit script as a canonical Codex patch: `*** Begin Patch` ... `*** End Patch`, every
 * line `\n`-terminated, every chunk with an `@@` header (a hint as `@@ -a,b +c,d @@ anchor`,
 * further stacked anchors one `@@ anchor` line each), `*** End of File` after a chunk that has it.
 */
import {
  type Chunk,
  type EditScript,
  type LineHint,
  type Operation,
  PatchsmithError,
} from '@patchsmith/core';
import { unprintableReason } from './printable.js';

const PREFIX = { context: ' ', remove: '-', add: '+' } as const;

/**
 * Whatever the script's `format`, the output is a Codex patch, and `parsePatch` of it gives the
 * script back (with `format: 'codex'` and the printed text's line numbers). Hence what cannot be
 * said faithfully throws `PatchsmithError('INVALID_EDIT')`: no operation; a path or move path that
 * is empty, has leading/trailing whitespace or a line break; an Update with neither chunks nor a
 * move; a chunk with no lines; an anchor that is empty, padded, multi-line or starts like a line
 * hint (`-1 +1 @@`); a line text with `\n` or a final `\r`; a context line whose text trims to
 * `*** End Patch`, `*** End of File` or `*** Begin Patch`; hint numbers that are not integers of
 * at most 15 digits. `line` fields are ignored.
 */
export function printPatch(script: EditScript): string {
  const problem = unprintableReason(script);
  if (problem !== null) {
    throw new PatchsmithError(
      'INVALID_EDIT',
      `cannot print the edit script as a Codex patch: ${problem.reason}`,
      {
        ...(problem.path === undefined ? {} : { path: problem.path }),
      },
    );
  }
  const out: string[] = ['*** Begin Patch'];
  for (const op of script.operations) printOperation(op, out);
  out.push('*** End Patch', '');
  return out.join('\n');
}

function printOperation(op: Operation, out: string[]): void {
  switch (op.kind) {
    case 'add':
      out.push(`*** Add File: ${op.path}`);
      for (const line of op.lines) out.push(`+${line}`);
      return;
    case 'delete':
      out.push(`*** Delete File: ${op.path}`);
      return;
    case 'update':
      out.push(`*** Update File: ${op.path}`);
      if (op.movePath !== undefined) out.push(`*** Move to: ${op.movePath}`);
      for (const chunk of op.chunks) printChunk(chunk, out);
      return;
  }
}

function printChunk(chunk: Chunk, out: string[]): void {
  const [first, ...rest] = chunk.anchors;
  let header = '@@';
  if (chunk.hint !== undefined) header += ` ${formatHint(chunk.hint)}`;
  if (first !== undefined) header += ` ${first.text}`;
  out.push(header);
  for (const anchor of rest) out.push(`@@ ${anchor.text}`);
  for (const line of chunk.lines) out.push(PREFIX[line.kind] + line.text);
  if (chunk.endOfFile) out.push('*** End of File');
}

/** `-12,3 +12,4 @@`, or `-12 +12 @@` without counts. */
function formatHint(hint: LineHint): string {
  const oldSide = hint.oldLines === undefined ? `${hint.oldStart}` : `${hint.oldStart},${hint.oldLines}`;
  const newSide = hint.newLines === undefined ? `${hint.newStart}` : `${hint.newStart},${hint.newLines}`;
  return `-${oldSide} +${newSide} @@`;
}
