/**
 * Prints Add operations as whole-file edits: the path on its own line, then a code block holding
 * the content, fenced with more backticks than any line of the content starts with, which
 * `parseWholeFile` reads back to the same operations.
 */
import { type AddFile, type EditScript, type Operation, PatchsmithError } from '@patchsmith/core';
import { isFenceLine, longestBacktickRun } from './fences.js';
import { fileNameFromLine } from './path-line.js';

/** Throws `PatchsmithError('INVALID_EDIT')` for what whole-file blocks cannot say. */
export function printWholeFile(script: EditScript): string {
  const out: string[] = [];
  for (const op of script.operations) {
    const problem = unprintable(op);
    if (problem !== null) {
      throw new PatchsmithError('INVALID_EDIT', `cannot print ${op.path} as a whole-file block: ${problem}`, {
        path: op.path,
      });
    }
    const lines = contentLines(op as AddFile);
    const fence = '`'.repeat(Math.max(3, longestBacktickRun(lines) + 1));
    out.push(pathLine(op.path)!, fence, ...lines, fence, '');
  }
  return out.map((line) => `${line}\n`).join('');
}

function contentLines(op: AddFile): string[] {
  if (op.content === undefined) return op.lines;
  return op.content === '' ? [] : op.content.slice(0, -1).split('\n');
}

/** The line the reader takes as exactly this path: the path itself, or backticked when bare it reads as a word; null if neither. */
function pathLine(path: string): string | null {
  if (/[\r\n]/.test(path)) return null;
  for (const line of [path, `\`${path}\``])
    if (fileNameFromLine(line) === path && !isFenceLine(line)) return line;
  return null;
}

function unprintable(op: Operation): string | null {
  if (op.kind !== 'add') return `a ${op.kind} operation has no whole-file form`;
  if (pathLine(op.path) === null) return `path ${JSON.stringify(op.path)} would not read back as a path line`;
  if (op.mode !== undefined || op.createOnly)
    return 'a whole-file block carries no mode and cannot say "only if new"';
  const lines = contentLines(op);
  if (op.content !== undefined && op.content !== '' && !op.content.endsWith('\n'))
    return 'a whole-file block ends its last line with a newline';
  if (lines.some((l) => l.endsWith('\r'))) return 'a line ending with \\r does not survive the reader';
  return null;
}
