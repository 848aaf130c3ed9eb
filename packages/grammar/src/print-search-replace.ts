/**
 * Prints `replace` operations of whole lines as Aider SEARCH/REPLACE blocks, each after its path
 * line, which `parseSearchReplace` reads back to the same operations.
 */
import { type EditScript, type Operation, PatchsmithError, type ReplaceText } from '@patchsmith/core';

/** A line the block grammar would read as a marker or a fence, not as text. */
const MARKER = /^[ \t]*(?:(?:<{5,9}|-{3,})[ \t]*SEARCH>?|={5,9}|(?:>{5,9}|\+{3,})[ \t]*REPLACE<?)[ \t]*$/;
const FENCE = /^[ \t]*(?:`{3,}|~{3,})/;

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
    out.push(
      block.path,
      '<<<<<<< SEARCH',
      ...blockLines(block.search),
      '=======',
      ...blockLines(block.replace),
    );
    out.push('>>>>>>> REPLACE', '');
  }
  return out.map((line) => `${line}\n`).join('');
}

function blockLines(text: string): string[] {
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

/** A text of whole lines: empty, or `\n`-terminated lines none of which reads as a marker or ends with `\r`. */
function isBlockText(text: string): boolean {
  if (text === '') return true;
  return text.endsWith('\n') && blockLines(text).every((l) => !MARKER.test(l) && !l.endsWith('\r'));
}

/** A path line the grammar reads back as the same path. */
function isPathLine(path: string): boolean {
  return (
    path !== '' &&
    path === path.trim() &&
    !/[\r\n]/.test(path) &&
    !MARKER.test(path) &&
    !FENCE.test(path) &&
    !/^(\*|`)|(\*|`|:)$/.test(path)
  );
}

function unprintable(op: Operation): string | null {
  if (op.kind !== 'replace') return `a ${op.kind} operation has no SEARCH/REPLACE form`;
  if (op.all || !op.wholeLines) return 'a block replaces one occurrence of whole lines';
  if (!isPathLine(op.path)) return `path ${JSON.stringify(op.path)} would not read back as a path line`;
  if (!isBlockText(op.search) || !isBlockText(op.replace))
    return 'search and replace must be whole lines, none of them a marker';
  return null;
}
