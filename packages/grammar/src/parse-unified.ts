/**
 * Parses a unified diff (`diff -u`, `git diff`, many files) into an edit script. The grammar
 * (`unified.peggy`) reads the sections; this gives them meaning: paths (`unified-names.ts`),
 * git's extended headers (renames, copies, modes, new and deleted files), hunks and their
 * `\ No newline at end of file` markers (`unified-hunks.ts`). Whatever contradicts itself, or
 * would be dropped silently, is a PARSE_ERROR naming its line. User mistakes come back as values.
 */
import {
  type DeleteFile,
  type EditError,
  type EditScript,
  type Operation,
  type Result,
  SYMLINK_MODE,
} from '@patchsmith/core';
import * as generated from './generated/unified.js';
import { binaryOperation } from './git-binary.js';
import { inUnwrappedFolder } from './in-folder.js';
import { forwardLineCounter } from './line-counter.js';
import { runParser } from './syntax-error.js';
import { type BuiltHunks, buildHunks } from './unified-hunks.js';
import { type FileNames, gitNames, traditionalNames } from './unified-names.js';
import { header, type LineOf, parseError, type RawItem, type RawSection } from './unified-section.js';
import { unwrapPatch } from './unwrap.js';
import { notWellFormedPatch } from './well-formed.js';

/** git's file type bits: a regular file is 0o100000, a symbolic link 0o120000 (its content is its target); submodules (0o160000) are refused. */
const FILE_TYPE_MASK = 0o170000;
const REGULAR_FILE = 0o100000;
const FOUND_MAX_CHARS = 80;

/** What a section of the diff sees of the input: the body, its line numbers, and the CRLF mode. */
interface Context {
  body: string;
  lineOf: LineOf;
  exactEndings: boolean;
}

export function parseUnified(text: string): Result<EditScript> {
  const malformed = notWellFormedPatch(text);
  if (malformed !== null) return failure(malformed);
  const unwrapped = unwrapPatch(text, { keepCarriageReturns: true, keepSpaceLedLastLine: true });
  const { body, firstLine } = unwrapped;
  if (body === '') return failure({ code: 'EMPTY_PATCH', message: 'line 1: the diff is empty', line: 1 });
  const parsed = runParser<RawItem[]>(generated, body, firstLine);
  if (!parsed.ok) return parsed;
  const items = parsed.value;
  const lineOf = forwardLineCounter(body, firstLine);
  const sections = items.filter((item): item is RawSection => !('stray' in item));
  const exactEndings = sections.some((s) => s.hunks.some((h) => h.lines.some((l) => l.text.endsWith('\r'))));
  const context: Context = { body, lineOf, exactEndings };
  const operations: Operation[] = [];
  for (const item of items) {
    if ('stray' in item) return failure(strayHunk(item.stray, context));
    const built = buildOperation(item, context);
    if ('code' in built) return failure(built);
    operations.push(built);
  }
  if (operations.length === 0) {
    return failure({
      code: 'EMPTY_PATCH',
      message: "the diff has no file: expected a '--- <path>' / '+++ <path>' pair or a 'diff --git' line",
      line: firstLine,
      expected: "'--- <path>' then '+++ <path>', or 'diff --git a/<path> b/<path>'",
    });
  }
  const script: EditScript = { format: 'unified', operations };
  return inUnwrappedFolder(script, unwrapped);
}

function failure(error: EditError): Result<EditScript> {
  return { ok: false, errors: [error] };
}

/** The line at `offset` of the body, quoted as an error shows it; or the end of the diff. */
function lineAt(offset: number, { body, lineOf }: Context): { line: number; found: string } {
  if (offset >= body.length) return { line: lineOf(body.length) + 1, found: 'the end of the diff' };
  const end = body.indexOf('\n', offset);
  const text = body.slice(offset, end === -1 ? body.length : end);
  if (text === '') return { line: lineOf(offset), found: 'an empty line' };
  const shown = text.length > FOUND_MAX_CHARS ? `${text.slice(0, FOUND_MAX_CHARS)}…` : text;
  return { line: lineOf(offset), found: JSON.stringify(shown) };
}

/** git's "patch fragment without header": a hunk header after text that belongs to no hunk. */
function strayHunk(offset: number, context: Context): EditError {
  const { line } = lineAt(offset, context);
  const previousStart = offset === 0 ? -1 : context.body.lastIndexOf('\n', offset - 2) + 1;
  const after =
    previousStart === -1
      ? 'at the start of the diff'
      : `after line ${line - 1} (${lineAt(previousStart, context).found})`;
  return parseError(
    `patch fragment without header: this hunk header comes ${after}, not right after a file's ` +
      "'---'/'+++' lines or its previous hunk (a hunk line lost its ' ', '-' or '+' prefix, or the file header is missing)",
    line,
    "a hunk header right after its file's '--- <path>' / '+++ <path>' lines or the previous hunk",
  );
}

function buildOperation(section: RawSection, context: Context): Operation | EditError {
  const { lineOf } = context;
  const line = lineOf(section.offset);
  const modes = readModes(section, lineOf);
  if ('code' in modes) return modes;
  const names =
    section.git === null
      ? traditionalNames(section.paths!, lineOf)
      : gitNames({ ...section, git: section.git }, lineOf);
  if ('code' in names) return names;
  const nothing = nothingToApply(section, names, context);
  if (nothing !== null) return nothing;
  const gitBinary = header(section, 'GIT binary patch');
  if (gitBinary !== undefined) return binarySection(section, names, modes.newMode, gitBinary.offset, context);
  const binary = header(section, 'Binary files');
  const hunks = buildHunks(section.hunks, lineOf);
  if ('code' in hunks) return hunks;
  if (names.new === null) {
    const deleted = deleteOperation(names.old!, hunks, line);
    return modes.oldLink && !('code' in deleted) ? { ...deleted, link: true } : deleted;
  }
  if (binary !== undefined) {
    return parseError(
      'a `Binary files … differ` line carries no content to apply: make the diff with `git diff --binary` ' +
        '(a `GIT binary patch`); without one, only deleting or renaming a binary file works',
      lineOf(binary.offset),
    );
  }
  if (names.old === null) return addOperation(names.new, hunks, modes.newMode, line);
  const copy = header(section, 'copy from') !== undefined;
  const finalNewline =
    hunks.newMarker !== undefined ? false : hunks.oldMarker !== undefined ? true : undefined;
  return {
    kind: 'update',
    path: names.old,
    ...(names.new !== names.old || copy ? { movePath: names.new } : {}),
    chunks: hunks.chunks,
    line,
    ...(copy ? { copy: true } : {}),
    ...(modes.newMode !== undefined ? { mode: modes.newMode } : {}),
    ...(modes.oldLink ? { link: true } : {}),
    ...(finalNewline !== undefined ? { finalNewline } : {}),
    ...(context.exactEndings ? { exactEndings: true } : {}),
    ...(names.other !== undefined ? { otherPath: names.other } : {}),
    ...(hunks.oldMarker !== undefined ? { oldNoNewline: hunks.oldMarker } : {}),
  };
}

/** A `GIT binary patch` section: its hunks are read from the lines after that header (`git-binary.ts`). */
function binarySection(
  section: RawSection,
  names: FileNames,
  mode: number | undefined,
  offset: number,
  { body, lineOf }: Context,
): Operation | EditError {
  if (section.hunks.length > 0) {
    return parseError(
      "a 'GIT binary patch' section cannot also have text hunks",
      lineOf(section.hunks[0]!.offset),
    );
  }
  const index = header(section, 'index');
  return binaryOperation(
    {
      old: names.old,
      new: names.new,
      copy: header(section, 'copy from') !== undefined,
      ...(mode !== undefined ? { mode } : {}),
      ...(index !== undefined ? { index: { value: index.value, line: lineOf(index.offset) } } : {}),
      offset,
      line: lineOf(section.offset),
    },
    body,
    lineOf,
  );
}

/**
 * A section with no hunk applies nothing unless its headers change something (git: "patch with
 * only garbage"): a `---`/`+++` pair always precedes hunks, and a git section needs a rename, a
 * copy, a mode, a new or deleted file, or a binary change. The error names the line after the
 * section: whatever stands there is not a hunk.
 */
function nothingToApply(section: RawSection, names: FileNames, context: Context): EditError | null {
  if (section.hunks.length > 0) return null;
  const metadata =
    section.git !== null &&
    section.paths === null &&
    (names.old === null ||
      names.new === null ||
      names.old !== names.new ||
      ['copy from', 'old mode', 'new mode', 'Binary files', 'GIT binary patch'].some(
        (name) => header(section, name) !== undefined,
      ));
  if (metadata) return null;
  const { line, found } = lineAt(section.end, context);
  const what = section.paths === null ? "the 'diff --git' section" : "the '---'/'+++' lines";
  const combined = context.body.startsWith('@@@', section.end)
    ? ' (a combined diff of a merge, which cannot be applied)'
    : '';
  return parseError(
    `expected a hunk header ('@@ -12,3 +12,4 @@') after ${what}; found ${found}${combined}: the section changes nothing`,
    line,
    "a hunk header ('@@ -12,3 +12,4 @@')",
  );
}

/** A new file: the added lines of its hunks, exactly (no final newline after a marker). */
function addOperation(
  path: string,
  hunks: BuiltHunks,
  mode: number | undefined,
  line: number,
): Operation | EditError {
  const old = hunks.chunks.flatMap((c) => c.lines).find((l) => l.kind !== 'add');
  if (old !== undefined) {
    return parseError(
      `a new file's hunk has ${old.kind === 'remove' ? 'a removed' : 'a context'} line: a file created by the patch has no old lines (new file depends on old contents)`,
      old.line,
    );
  }
  const lines = hunks.chunks.flatMap((c) => c.lines.map((l) => l.text));
  const content = lines.length === 0 ? '' : lines.join('\n') + (hunks.newMarker !== undefined ? '' : '\n');
  return { kind: 'add', path, lines, content, line, ...(mode !== undefined ? { mode } : {}) };
}

/** A deleted file: its hunks must remove lines only, and the planner checks they are the whole file. */
function deleteOperation(path: string, hunks: BuiltHunks, line: number): DeleteFile | EditError {
  const kept = hunks.chunks.flatMap((c) => c.lines).find((l) => l.kind !== 'remove');
  if (kept !== undefined) {
    return parseError(
      `a deleted file's hunk has ${kept.kind === 'add' ? 'an added' : 'a context'} line: a file the patch deletes keeps no line (deleted file still has contents)`,
      kept.line,
    );
  }
  if (hunks.chunks.length === 0) return { kind: 'delete', path, line };
  return {
    kind: 'delete',
    path,
    line,
    chunks: hunks.chunks,
    ...(hunks.oldMarker !== undefined ? { oldNoNewline: hunks.oldMarker } : {}),
  };
}

/** An `index <old>..<new> <mode>` line's mode: the file's mode on both sides (git omits mode lines then). */
const INDEX_MODE = / ([0-7]{6})$/;

/** What the mode headers say: the new mode (permission bits, or `SYMLINK_MODE`), and whether the old side is a link. */
interface Modes {
  newMode?: number;
  oldLink?: boolean;
}

/** The modes of a section, refusing what is neither a regular file nor a symbolic link (a submodule). */
function readModes(section: RawSection, lineOf: LineOf): Modes | EditError {
  const modes: Modes = {};
  const index = header(section, 'index');
  const indexMode = index === undefined ? null : INDEX_MODE.exec(index.value);
  const found = [
    ...['old mode', 'new mode', 'new file mode', 'deleted file mode'].map((name) => ({
      name,
      at: header(section, name),
    })),
    ...(indexMode !== null ? [{ name: 'index', at: { value: indexMode[1]!, offset: index!.offset } }] : []),
  ];
  for (const { name, at } of found) {
    if (at === undefined) continue;
    const mode = /^[0-7]{6}\b/.test(at.value) ? Number.parseInt(at.value.slice(0, 6), 8) : Number.NaN;
    if (Number.isNaN(mode)) {
      return parseError(
        `'${name}' needs a six-digit octal mode such as 100644`,
        lineOf(at.offset),
        'a mode like 100644',
      );
    }
    const type = mode & FILE_TYPE_MASK;
    if (type !== REGULAR_FILE && type !== SYMLINK_MODE) {
      return parseError(
        `mode ${at.value.slice(0, 6)} is neither a regular file nor a symbolic link (submodules are not supported)`,
        lineOf(at.offset),
      );
    }
    const link = type === SYMLINK_MODE;
    if (name === 'old mode' || name === 'deleted file mode' || name === 'index') modes.oldLink ||= link;
    if (name === 'new mode' || name === 'new file mode' || (name === 'index' && link))
      modes.newMode = link ? SYMLINK_MODE : mode & 0o7777;
  }
  return modes;
}
