import { posix } from 'node:path';
import type { Chunk, EditError, EditScript, Operation } from '@patchsmith/core';
import { errorDetails, errorHeading, listedErrors } from './describe-error.js';
import type { EditReport } from './report.js';
import { terminalSafe } from './terminal-safe.js';

/** What the reference's messages are made of besides the report: the patch as parsed, and the folder. */
export interface ApplyPatchContext {
  /** The patch's edit script, its paths as written (the reference prints them so). */
  script?: EditScript;
  /** The working directory: the reference names a file it cannot use by `cwd.join(path)`. */
  cwd?: string;
}

/**
 * A path as one line of output: as the reference prints it, except that a control character
 * (a newline or ESC in a hostile name) is written out, so a name can neither forge a line nor
 * drive the terminal (the reference prints those raw).
 */
const shownPath = (path: string) => terminalSafe(path).replace(/\n/g, '\\n');

/** The reference's absolute name of a path: `cwd.join(path)` (an absolute path replaces the folder), normalised lexically. */
function joined(cwd: string | undefined, path: string): string {
  if (cwd === undefined) return path;
  return posix.normalize(path.startsWith('/') ? path : `${cwd}/${path}`);
}

/** The reference's summary: every added path, then every modified one, then every deleted one, each in patch order. */
function summaryFromScript(script: EditScript): string[] {
  const ops = script.operations;
  const added = ops.flatMap((op) => (op.kind === 'add' ? [`A ${shownPath(op.path)}`] : []));
  const modified = ops.flatMap((op) =>
    op.kind === 'update' ? [`M ${shownPath(op.movePath ?? op.path)}`] : [],
  );
  const deleted = ops.flatMap((op) => (op.kind === 'delete' ? [`D ${shownPath(op.path)}`] : []));
  return [...added, ...modified, ...deleted];
}

/** Letter the reference `apply_patch` prints for an operation; a move reports its destination as modified. */
function summaryEntry(file: EditReport['files'][number]): string {
  if (file.op === 'add') return `A ${file.path}`;
  if (file.op === 'delete') return `D ${file.path}`;
  if (file.op === 'move') return `M ${file.movePath}`;
  return `M ${file.path}`;
}

/** The operation (and its chunk) at the patch line an error names. */
function operationAt(script: EditScript, line: number | undefined): { op: Operation; chunk?: Chunk } | null {
  if (line === undefined) return null;
  for (const op of script.operations) {
    if (op.line === line) return { op };
    const chunk = op.kind === 'update' ? op.chunks.find((c) => c.line === line) : undefined;
    if (chunk !== undefined) return { op, chunk };
  }
  return null;
}

// Our parse messages that have a reference counterpart, and what the reference says for them.
const FIRST_LINE = /expected '\*\*\* Begin Patch'/;
const LAST_LINE = /'\*\*\* End Patch'/;
const BAD_HEADER = 'expected a file header ';
const FOUND = ' found "';

/**
 * The quoted line of our "expected a file header … found "…"" message, or null. Searched with
 * indexOf: an unanchored pattern is retried from every position of a long message.
 */
function badHeaderLine(message: string): string | null {
  const start = message.indexOf(BAD_HEADER);
  if (start === -1 || !message.endsWith('"')) return null;
  const found = message.indexOf(FOUND, start + BAD_HEADER.length);
  if (found === -1 || message.slice(start, found).includes('"')) return null;
  return message.slice(found + FOUND.length, -1);
}
const ANCHOR_MISS = /^could not find the anchor line `@@ (.*)` at or after line \d+$/;
const VALID_HEADERS =
  "Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'";

/** A line our message quoted as JSON, back as it was written. */
function unquoted(quoted: string): string {
  try {
    return String(JSON.parse(`"${quoted}"`));
  } catch {
    return quoted;
  }
}

/** The reference's message for a parse error it also makes, or null. */
function referenceParseMessage(error: EditError): string | null {
  if (FIRST_LINE.test(error.message))
    return "Invalid patch: The first line of the patch must be '*** Begin Patch'";
  const header = badHeaderLine(error.message);
  if (header !== null && error.line !== undefined) {
    const found = unquoted(header);
    return `Invalid patch hunk on line ${error.line}: '${terminalSafe(found)}' is not a valid hunk header. ${VALID_HEADERS}`;
  }
  if (LAST_LINE.test(error.message) && !error.message.includes('no operation')) {
    return "Invalid patch: The last line of the patch must be '*** End Patch'";
  }
  return null;
}

/** The reference's message for a file it cannot patch, when it has one for this refusal. */
function referenceFileMessage(error: EditError, context: ApplyPatchContext): string | null {
  const found = context.script === undefined ? null : operationAt(context.script, error.line);
  if (found === null) return null;
  const where = shownPath(joined(context.cwd, found.op.path));
  if (error.code === 'FILE_NOT_FOUND' && found.op.kind === 'update') {
    return `Failed to read file to update ${where}: No such file or directory (os error 2)`;
  }
  if (error.code === 'FILE_NOT_FOUND' && found.op.kind === 'delete') return `Failed to delete file ${where}`;
  if (error.code !== 'NO_MATCH' || found.chunk === undefined) return null;
  const anchor = ANCHOR_MISS.exec(error.message);
  if (anchor !== null) return `Failed to find context '${terminalSafe(anchor[1]!)}' in ${where}`;
  const old = found.chunk.lines.filter((l) => l.kind !== 'add').map((l) => terminalSafe(l.text));
  return `Failed to find expected lines in ${where}:\n${old.join('\n')}`;
}

/** The reference's own words for the first refusal, when it has words for that class of refusal. */
function referenceMessage(error: EditError, context: ApplyPatchContext): string | null {
  if (error.code === 'EMPTY_PATCH') return 'No files were modified.';
  if (error.code === 'PARSE_ERROR') return referenceParseMessage(error);
  return referenceFileMessage(error, context);
}

/**
 * The reference `apply_patch`'s output: the summary on stdout (paths as written, added then
 * modified then deleted), the error on stderr in the reference's words where it has them; a
 * refusal the reference does not make (it would write outside the folder, or over a denied or
 * ambiguous match) keeps patchsmith's message.
 */
export function formatApplyPatch(
  report: EditReport,
  context: ApplyPatchContext = {},
): { stdout: string; stderr: string } {
  if (report.ok) {
    const summary =
      context.script === undefined ? report.files.map(summaryEntry) : summaryFromScript(context.script);
    const lines = ['Success. Updated the following files:', ...summary];
    return { stdout: `${lines.join('\n')}\n`, stderr: '' };
  }
  const first = report.errors[0];
  const reference = first === undefined ? null : referenceMessage(first, context);
  if (reference !== null) return { stdout: '', stderr: `${reference}\n` };
  const lines: string[] = [];
  const { listed, rest } = listedErrors(report.errors);
  for (const error of listed) {
    lines.push(errorHeading(error));
    for (const l of errorDetails(error)) lines.push(`  ${l}`);
  }
  if (rest !== null) lines.push(rest);
  return { stdout: '', stderr: `${lines.join('\n')}\n` };
}
