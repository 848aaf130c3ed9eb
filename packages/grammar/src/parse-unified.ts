/**
 * Parses a unified diff (`diff -u`, `git diff`, many files) into an edit script. The grammar
 * (`unified.peggy`) reads the sections; this gives them meaning: paths (`a/`/`b/` prefixes,
 * quoting, `/dev/null`), git's extended headers (renames, copies, modes, new and deleted files),
 * `\ No newline at end of file` markers and line hints. User mistakes come back as values.
 */
import type { EditError, Result } from '@patchsmith/core';
import * as generated from './generated/unified.js';
import { readQuotedPath } from './git-path.js';
import { forwardLineCounter } from './line-counter.js';
import type { Chunk, ChunkLine, EditScript, LineHint, Operation } from './script.js';
import { runParser } from './syntax-error.js';
import { unwrapPatch } from './unwrap.js';

/** What the grammar returns, with body offsets. */
interface RawSection {
  git: string | null;
  extended: { name: string; value: string; offset: number }[];
  paths: { old: string; new: string; offset: number } | null;
  hunks: RawHunk[];
  offset: number;
}

interface RawHunk {
  range: LineHint | null;
  lines: { kind: 'context' | 'remove' | 'add' | 'no-newline'; text: string; offset: number }[];
  offset: number;
}

const DEV_NULL = '/dev/null';
/** git's file type bits: a regular file is 0o100000; symlinks (0o120000) and submodules (0o160000) are not files. */
const FILE_TYPE_MASK = 0o170000;
const REGULAR_FILE = 0o100000;

type LineOf = (offset: number) => number;

export function parseUnified(text: string): Result<EditScript> {
  const { body, firstLine } = unwrapPatch(text, { keepCarriageReturns: true, keepSpaceLedLastLine: true });
  if (body === '') return failure({ code: 'EMPTY_PATCH', message: 'line 1: the diff is empty', line: 1 });
  const parsed = runParser<RawSection[]>(generated, body, firstLine);
  if (!parsed.ok) return parsed;
  const sections = parsed.value;
  if (sections.length === 0) {
    return failure({
      code: 'EMPTY_PATCH',
      message: "the diff has no file: expected a '--- <path>' / '+++ <path>' pair or a 'diff --git' line",
      line: firstLine,
      expected: "'--- <path>' then '+++ <path>', or 'diff --git a/<path> b/<path>'",
    });
  }
  const lineOf = forwardLineCounter(body, firstLine);
  const exactEndings = sections.some((s) => s.hunks.some((h) => h.lines.some((l) => l.text.endsWith('\r'))));
  const operations: Operation[] = [];
  for (const section of sections) {
    const built = buildOperation(section, lineOf, exactEndings);
    if (built === null) continue;
    if ('code' in built) return failure(built);
    operations.push(built);
  }
  return { ok: true, value: { format: 'unified', operations } };
}

function failure(error: EditError): Result<EditScript> {
  return { ok: false, errors: [error] };
}

function parseError(message: string, line: number, expected?: string): EditError {
  return {
    code: 'PARSE_ERROR',
    message: `line ${line}: ${message}`,
    line,
    ...(expected ? { expected } : {}),
  };
}

/** The value of the first extended header line of that name. */
function header(section: RawSection, name: string): { value: string; offset: number } | undefined {
  return section.extended.find((e) => e.name === name);
}

function buildOperation(
  section: RawSection,
  lineOf: LineOf,
  exactEndings: boolean,
): Operation | EditError | null {
  const line = lineOf(section.offset);
  const binary = header(section, 'GIT binary patch') ?? header(section, 'Binary files');
  const modes = readModes(section, lineOf);
  if ('code' in modes) return modes;
  const paths = sectionPaths(section);
  if (paths === null) {
    return parseError(
      "cannot tell which file this section changes (no '---'/'+++' pair, no rename lines, and an unclear 'diff --git' line)",
      line,
    );
  }
  const deleted = header(section, 'deleted file mode') !== undefined || paths.new === null;
  const added = !deleted && (header(section, 'new file mode') !== undefined || paths.old === null);
  if (deleted) {
    const path = paths.old ?? paths.new;
    return path === null ? parseError('a deleted file needs a path', line) : { kind: 'delete', path, line };
  }
  if (binary !== undefined) {
    return parseError(
      'binary diffs are not supported (a `Binary files … differ` line or a `GIT binary patch` carries no text to apply); ' +
        'only deleting or renaming a binary file works',
      lineOf(binary.offset),
    );
  }
  const hunks = section.hunks.map((hunk) => buildChunk(hunk, lineOf));
  if (added) {
    const path = paths.new ?? paths.old;
    if (path === null) return parseError('a new file needs a path', line);
    return addOperation(path, hunks, modes.newMode, line);
  }
  const oldPath = paths.old ?? paths.new;
  const newPath = paths.new ?? paths.old;
  if (oldPath === null || newPath === null) return parseError('a changed file needs a path', line);
  const copy = header(section, 'copy from') !== undefined;
  const finalNewline = hunks.some((h) => h.newNoNewline)
    ? false
    : hunks.some((h) => h.oldNoNewline)
      ? true
      : undefined;
  return {
    kind: 'update',
    path: oldPath,
    ...(newPath !== oldPath || copy ? { movePath: newPath } : {}),
    chunks: hunks.map((h) => h.chunk),
    line,
    ...(copy ? { copy: true } : {}),
    ...(modes.newMode !== undefined ? { mode: modes.newMode } : {}),
    ...(finalNewline !== undefined ? { finalNewline } : {}),
    ...(exactEndings ? { exactEndings: true } : {}),
  };
}

/** A new file: the added lines of its hunks, exactly (no final newline after a marker). */
function addOperation(path: string, hunks: BuiltChunk[], mode: number | undefined, line: number): Operation {
  const lines = hunks.flatMap((h) => h.chunk.lines.filter((l) => l.kind !== 'remove').map((l) => l.text));
  const noNewline = hunks.some((h) => h.newNoNewline);
  const content = lines.length === 0 ? '' : lines.join('\n') + (noNewline ? '' : '\n');
  return { kind: 'add', path, lines, content, line, ...(mode !== undefined ? { mode } : {}) };
}

interface BuiltChunk {
  chunk: Chunk;
  oldNoNewline: boolean;
  newNoNewline: boolean;
}

/** A hunk as a chunk: no anchors (git's heading after `@@ … @@` is not one), its numbers as the hint. */
function buildChunk(hunk: RawHunk, lineOf: LineOf): BuiltChunk {
  // The header's line first: offsets then only grow, so the line counter never walks back.
  const line = lineOf(hunk.offset);
  const lines: ChunkLine[] = [];
  let oldNoNewline = false;
  let newNoNewline = false;
  let previous: ChunkLine | undefined;
  for (const raw of hunk.lines) {
    if (raw.kind === 'no-newline') {
      // The marker speaks of the line before it: the old side's, the new side's, or both.
      if (previous !== undefined && previous.kind !== 'add') oldNoNewline = true;
      if (previous !== undefined && previous.kind !== 'remove') newNoNewline = true;
      continue;
    }
    previous = { kind: raw.kind, text: raw.text, line: lineOf(raw.offset) };
    lines.push(previous);
  }
  const chunk: Chunk = {
    anchors: [],
    lines,
    endOfFile: oldNoNewline || newNoNewline,
    line,
  };
  if (hunk.range !== null) chunk.hint = hunk.range;
  return { chunk, oldNoNewline, newNoNewline };
}

/** The new mode's permission bits, refusing what is not a regular file. */
function readModes(section: RawSection, lineOf: LineOf): { newMode?: number } | EditError {
  let newMode: number | undefined;
  for (const name of ['old mode', 'new mode', 'new file mode', 'deleted file mode']) {
    const found = header(section, name);
    if (found === undefined) continue;
    const mode = /^[0-7]{6}\b/.test(found.value) ? Number.parseInt(found.value.slice(0, 6), 8) : Number.NaN;
    if (Number.isNaN(mode)) {
      return parseError(
        `'${name}' needs a six-digit octal mode such as 100644`,
        lineOf(found.offset),
        'a mode like 100644',
      );
    }
    if ((mode & FILE_TYPE_MASK) !== REGULAR_FILE) {
      return parseError(
        `mode ${found.value.slice(0, 6)} is not a regular file (symbolic links and submodules are not supported)`,
        lineOf(found.offset),
      );
    }
    if (name === 'new mode' || name === 'new file mode') newMode = mode & 0o7777;
  }
  return newMode === undefined ? {} : { newMode };
}

/**
 * The old and new paths (null for `/dev/null`): rename and copy lines first (they carry no
 * prefix), then the `---`/`+++` pair, then the `diff --git` line.
 */
function sectionPaths(section: RawSection): { old: string | null; new: string | null } | null {
  const renamedFrom =
    header(section, 'rename from') ?? header(section, 'copy from') ?? header(section, 'rename old');
  const renamedTo =
    header(section, 'rename to') ?? header(section, 'copy to') ?? header(section, 'rename new');
  if (renamedFrom !== undefined && renamedTo !== undefined) {
    const from = headerPath(renamedFrom.value);
    const to = headerPath(renamedTo.value);
    if (from !== null && to !== null) return { old: from, new: to };
  }
  if (section.paths !== null) {
    const old = headerPath(section.paths.old);
    const neu = headerPath(section.paths.new);
    if (old !== null && neu !== null) return stripPrefixes(old, neu);
  }
  if (section.git !== null) {
    const pair = gitHeaderPaths(section.git);
    if (pair !== null) return stripPrefixes(pair[0], pair[1]);
  }
  return null;
}

/**
 * A path field: quoted, or up to a tab (`diff -u` puts a timestamp there, git a tab after a name
 * with spaces); trailing spaces are dropped. Null when empty.
 */
function headerPath(field: string): string | null {
  const quoted = readQuotedPath(field);
  if (quoted !== null) return quoted.path;
  const tab = field.indexOf('\t');
  const path = (tab === -1 ? field : field.slice(0, tab)).replace(/[ \r]+$/, '');
  return path === '' ? null : path;
}

/** `a/x` and `b/y` lose their prefixes; `/dev/null` becomes null. */
function stripPrefixes(old: string, neu: string): { old: string | null; new: string | null } {
  return {
    old: old === DEV_NULL ? null : old.startsWith('a/') ? old.slice(2) : old,
    new: neu === DEV_NULL ? null : neu.startsWith('b/') ? neu.slice(2) : neu,
  };
}

/**
 * The two paths of `diff --git a/x b/y`: quoted ones, or, unquoted, the split that gives the same
 * name on both sides (git's own rule for names with spaces), else the split at the last ` b/`.
 */
function gitHeaderPaths(text: string): [string, string] | null {
  const trimmed = text.replace(/[ \r]+$/, '');
  const first = readQuotedPath(trimmed);
  if (first !== null) {
    const rest = first.rest.replace(/^ /, '');
    const second = readQuotedPath(rest);
    return [first.path, second?.path ?? rest];
  }
  const quotedSecond = trimmed.lastIndexOf(' "');
  if (quotedSecond !== -1) {
    const second = readQuotedPath(trimmed.slice(quotedSecond + 1));
    if (second !== null && second.rest === '') return [trimmed.slice(0, quotedSecond), second.path];
  }
  if ((trimmed.length - 1) % 2 === 0) {
    const half = (trimmed.length - 1) / 2;
    const a = trimmed.slice(0, half);
    const b = trimmed.slice(half + 1);
    if (trimmed[half] === ' ' && a.slice(2) === b.slice(2)) return [a, b];
  }
  const split = trimmed.lastIndexOf(' b/');
  return split === -1 ? null : [trimmed.slice(0, split), trimmed.slice(split + 1)];
}
