/**
 * Parses SEARCH/REPLACE blocks (Aider's and Cline's markers) into an edit script: one `replace`
 * operation per block, matching whole lines; an empty SEARCH creates the file or appends to it.
 */
import type { EditError, EditScript, ReplaceText, Result } from '@patchsmith/core';
import * as generated from './generated/search-replace.js';
import { inUnwrappedFolder } from './in-folder.js';
import { forwardLineCounter } from './line-counter.js';
import { pathFromLine } from './path-line.js';
import { blockLines, type RawBlockLines } from './search-replace-block.js';
import { runParser } from './syntax-error.js';
import { unwrapPatch } from './unwrap.js';
import { notWellFormedPatch } from './well-formed.js';

interface RawBlock extends RawBlockLines {
  path: string | null;
  offset: number;
}

/** Lines as a block's text: each ends with `\n`; no lines is the empty text. */
export function blockText(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export function parseSearchReplace(text: string): Result<EditScript> {
  const malformed = notWellFormedPatch(text);
  if (malformed !== null) return { ok: false, errors: [malformed] };
  const unwrapped = unwrapPatch(text);
  const { body, firstLine } = unwrapped;
  const parsed = runParser<RawBlock[]>(generated, body, firstLine);
  if (!parsed.ok) return parsed;
  const blocks = parsed.value;
  if (blocks.length === 0) {
    return failure({
      code: 'EMPTY_PATCH',
      message:
        "no SEARCH/REPLACE block: expected a path line, then '<<<<<<< SEARCH', the lines to find, '=======', the new lines and '>>>>>>> REPLACE'",
      line: firstLine,
      expected: "'<<<<<<< SEARCH'",
    });
  }
  const lineOf = forwardLineCounter(body, firstLine);
  const operations: ReplaceText[] = [];
  let path: string | null = null;
  for (const block of blocks) {
    const line = lineOf(block.offset);
    path = (block.path === null ? null : pathFromLine(block.path)) ?? path;
    if (path === null) {
      return failure({
        code: 'PARSE_ERROR',
        message: `line ${line}: expected the file's path on the line before '<<<<<<< SEARCH'`,
        line,
        expected: "a path line before '<<<<<<< SEARCH'",
      });
    }
    if (block.startLine !== null && block.endLine !== null && block.endLine < block.startLine) {
      return failure({
        code: 'PARSE_ERROR',
        message: `line ${line}: ':end_line:${block.endLine}' comes before ':start_line:${block.startLine}'`,
        line,
        expected: "an ':end_line:' at or after the ':start_line:'",
      });
    }
    const { search, replace, startLine, fenceClosed } = blockLines(block);
    if (!block.closed && (replace.length === 0 || (insideFence(body, block.offset) && !fenceClosed))) {
      return failure({
        code: 'PARSE_ERROR',
        message: `line ${line}: the last block has no '>>>>>>> REPLACE' line, and ${replace.length === 0 ? 'no REPLACE lines' : 'its code fence never closes'}: the reply was cut off`,
        line,
        expected: "'>>>>>>> REPLACE' ending the block",
      });
    }
    operations.push({
      kind: 'replace',
      path,
      search: blockText(search),
      replace: blockText(replace),
      all: false,
      wholeLines: true,
      line,
      ...(startLine !== null && startLine > 0 && { startLine }),
    });
  }
  const script: EditScript = { format: 'search-replace', operations };
  return inUnwrappedFolder(script, unwrapped);
}

/** A fence line comes before the block's SEARCH line: it was written inside a code block, which must close for the reply to be whole. */
function insideFence(body: string, offset: number): boolean {
  const marker = body.slice(offset).search(/^[ \t]*(?:<{5,9}|-{3,})[ \t]*SEARCH/m);
  return /^[ \t]*(?:`{3,}|~{3,})/m.test(body.slice(0, marker === -1 ? body.length : offset + marker));
}

function failure(error: EditError): Result<EditScript> {
  return { ok: false, errors: [error] };
}
