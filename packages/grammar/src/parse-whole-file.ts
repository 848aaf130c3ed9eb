/**
 * Parses whole-file edits (Aider's whole-file format): each file's name, then a code block whose
 * content becomes the file. The name comes from the line before the block (bare, `**bold**`,
 * backticked, `# path`), from the fence's info string (```` ```python src/x.py ````), from a bare
 * name on the block's first line, or else from the one backticked name the prose just mentioned;
 * sources that disagree, or none, are a PARSE_ERROR naming the block's line. A block still open at
 * the end of the text is an error: a reply cut off mid-file must not write half a file.
 */
import type { AddFile, EditError, EditScript, Result } from '@patchsmith/core';
import { type Fence, isFenceLine, openingFence } from './fences.js';
import { fileNameFromLine, looksLikePath } from './path-line.js';
import { normalizeLines } from './unwrap.js';
import { notWellFormedPatch } from './well-formed.js';

/** A backticked name in prose: "I changed `src/app.py`" (Aider's `saw_fname`). */
const MENTIONED = /`([^`\s]+)`/g;
const BLANK = /^[ \t]*$/;

interface Named {
  path: string;
  /** Where the name came from, for an error saying which sources disagree. */
  source: string;
}

export function parseWholeFile(text: string): Result<EditScript> {
  const malformed = notWellFormedPatch(text);
  if (malformed !== null) return { ok: false, errors: [malformed] };
  const lines = normalizeLines(text);
  const operations: AddFile[] = [];
  /** The name prose mentioned since the last block, when exactly one. */
  let mentioned: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const fence = openingFence(lines[i]!);
    if (fence === null) {
      mentioned = mentionIn(lines[i]!, mentioned);
      continue;
    }
    const line = i + 1;
    const end = closingLine(lines, i, fence);
    if (end === -1) {
      return failure(
        line,
        `the code block opened at line ${line} has no closing fence: the reply was cut off`,
        'a closing fence',
      );
    }
    let body = lines.slice(i + 1, end);
    const names = namesOf(lines, i, fence, body);
    if (names.first) body = body.slice(1);
    const chosen = chooseName(names.found, mentioned, line);
    if ('code' in chosen) return { ok: false, errors: [chosen] };
    const content = body.length === 0 ? '' : `${body.join('\n')}\n`;
    operations.push({ kind: 'add', path: chosen.path, lines: body, content, line });
    mentioned = null;
    i = end;
  }
  if (operations.length === 0) {
    return {
      ok: false,
      errors: [
        {
          code: 'EMPTY_PATCH',
          message:
            "no whole-file block: expected the file's path on a line, then a code block holding its new content",
          line: 1,
          expected: 'a path line and a code block',
        },
      ],
    };
  }
  return { ok: true, value: { format: 'whole-file', operations } };
}

/** Index of the line closing the block opened at `open`, or -1. */
function closingLine(lines: readonly string[], open: number, fence: Fence): number {
  for (let j = open + 1; j < lines.length; j++) if (fence.close(lines[j]!)) return j;
  return -1;
}

/** Every name the block's surroundings give; `first`: the block's first line was a bare name (not content). */
function namesOf(
  lines: readonly string[],
  open: number,
  fence: Fence,
  body: readonly string[],
): { found: Named[]; first: boolean } {
  const found: Named[] = [];
  const before = lineBefore(lines, open);
  if (before !== null) {
    const path = fileNameFromLine(before.text);
    if (path !== null) found.push({ path, source: `line ${before.index + 1}` });
  }
  const infoPaths = fence.info.filter(looksLikePath);
  for (const path of infoPaths) found.push({ path, source: `the fence's info string` });
  // Only when nothing else names the file: `node_modules/` is a .gitignore's first line.
  const first =
    found.length === 0 && body.length > 1 && looksLikePath(body[0]!) && body[0]!.trim() === body[0];
  if (first) found.push({ path: body[0]!, source: "the block's first line" });
  return { found, first };
}

/** The nearest non-blank line above the fence, unless it is another block's fence or nothing is there. */
function lineBefore(lines: readonly string[], open: number): { text: string; index: number } | null {
  let j = open - 1;
  while (j >= 0 && BLANK.test(lines[j]!)) j--;
  if (j < 0 || isFenceLine(lines[j]!)) return null;
  return { text: lines[j]!, index: j };
}

function chooseName(found: readonly Named[], mentioned: string | null, line: number): Named | EditError {
  const distinct = [...new Set(found.map((n) => n.path))];
  if (distinct.length > 1) {
    const said = found.map((n) => `${JSON.stringify(n.path)} (${n.source})`).join(', ');
    return error(
      line,
      `line ${line}: the code block's file is ambiguous: ${said}`,
      'one file name for the block',
    );
  }
  if (found.length > 0) return found[0]!;
  if (mentioned !== null) return { path: mentioned, source: 'the prose before the block' };
  return error(
    line,
    `line ${line}: no file name for the code block: put the file's path on the line before the opening fence`,
    'a path line before the code block',
  );
}

/** The one backticked path a prose line mentions, carried over from earlier lines when it mentions none. */
function mentionIn(text: string, previous: string | null): string | null {
  const paths = [...text.matchAll(MENTIONED)].map((m) => m[1]!).filter(looksLikePath);
  const distinct = [...new Set(paths)];
  if (distinct.length === 0) return previous;
  // Two names in one sentence say nothing about which the block holds.
  return distinct.length === 1 ? distinct[0]! : null;
}

function error(line: number, message: string, expected: string): EditError {
  return { code: 'PARSE_ERROR', message, line, expected };
}

function failure(line: number, message: string, expected: string): Result<EditScript> {
  return { ok: false, errors: [error(line, `line ${line}: ${message}`, expected)] };
}
