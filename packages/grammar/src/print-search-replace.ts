/**
 * Prints `replace` operations of whole lines as Aider SEARCH/REPLACE blocks, each after its path
 * line, which `parseSearchReplace` reads back to the same operations: a `startLine` as Roo Code's
 * `:start_line:` header, and a line that reads as a marker escaped with a backslash, as Roo does.
 */
import { type EditScript, type Operation, PatchsmithError, type ReplaceText } from '@patchsmith/core';
import { pathFromLine } from './path-line.js';
import { isEscapedMarker, MARKER_LINE } from './search-replace-block.js';

const FENCE = /^[ \t]*(?:`{3,}|~{3,})/;
/** A line read as Roo's `:start_line:` header when it comes first in SEARCH. */
const LINE_HEADER = /^[ \t]*:(?:start|end)_line:/;
/** `12 | text`, a line number as `read_file` shows it; SEARCH lines that all have one lose it. */
const NUMBERED = /^[ \t]*\d+[ \t]*\|(?!\|)/;
const BLANK = /^[ \t]*$/;

/** Throws `PatchsmithError('INVALID_EDIT')` for what blocks cannot say (see the README). */
export function printSearchReplace(script: EditScript): string {
  const out: string[] = [];
  for (const op of script.operations) {
    const problem = unprintable(op);
    if (problem !== null) {
      throw new PatchsmithError(
        'INVALID_EDIT',
        `cannot print ${op.path} as a SEARCH/REPLACE block: ${problem}`,
        {
          path: op.path,
        },
      );
    }
    const block = op as ReplaceText;
    out.push(block.path, '<<<<<<< SEARCH');
    if (block.startLine !== undefined) out.push(`:start_line:${block.startLine}`, '-------');
    out.push(
      ...blockLines(block.search).map(escapeMarker),
      '=======',
      ...blockLines(block.replace).map(escapeMarker),
    );
    out.push('>>>>>>> REPLACE', '');
  }
  return out.map((line) => `${line}\n`).join('');
}

/** A marker line as content: behind a backslash, which the reader drops. */
function escapeMarker(line: string): string {
  return MARKER_LINE.test(line) ? `\\${line}` : line;
}

function blockLines(text: string): string[] {
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

/** A text of whole lines: empty, or `\n`-terminated lines none of which the reader would change or end with `\r`. */
function isBlockText(text: string): boolean {
  if (text === '') return true;
  return (
    text.endsWith('\n') &&
    blockLines(text).every((l) => !isEscapedMarker(l) && !LINE_HEADER.test(l) && !l.endsWith('\r'))
  );
}

/** A SEARCH the reader would take for less than it is: blank lines only (empty SEARCH), every line numbered. */
function searchReadsOtherwise(search: string): boolean {
  if (search === '') return false;
  const lines = blockLines(search);
  return lines.every((l) => BLANK.test(l)) || lines.every((l) => NUMBERED.test(l));
}

/** A path line the grammar reads back as the same path. */
function isPathLine(path: string): boolean {
  return !/[\r\n]/.test(path) && !MARKER_LINE.test(path) && !FENCE.test(path) && pathFromLine(path) === path;
}

function unprintable(op: Operation): string | null {
  if (op.kind !== 'replace') return `a ${op.kind} operation has no SEARCH/REPLACE form`;
  if (op.all || !op.wholeLines) return 'a block replaces one occurrence of whole lines';
  if (!isPathLine(op.path)) return `path ${JSON.stringify(op.path)} would not read back as a path line`;
  if (!isBlockText(op.search) || !isBlockText(op.replace))
    return 'search and replace must be whole lines, none of them an escaped marker or a `:start_line:` header';
  if (searchReadsOtherwise(op.search))
    return 'a search of blank lines only, or numbered on every line, reads back as something else';
  if (op.startLine !== undefined && !(Number.isInteger(op.startLine) && op.startLine > 0))
    return 'startLine must be a whole number of 1 or more';
  return null;
}
