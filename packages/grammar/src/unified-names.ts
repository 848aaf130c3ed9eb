/**
 * Which files a unified-diff section names, by git's rules: a traditional diff (`---`/`+++` only)
 * never renames; `/dev/null` and GNU diff's epoch timestamps (`diff -N`) mean a created or deleted
 * file; a git section's `---`/`+++` names must agree with its `diff --git` line and its rename or
 * copy lines, and its headers with each other. Contradictions are PARSE_ERROR values, never a guess.
 */
import { type EditError, readQuotedPath, trimTrailing } from '@patchsmith/core';
import { header, type LineOf, parseError, plusLine, type RawSection } from './unified-section.js';

/** The files of a section; null for a side that is `/dev/null` (created or deleted file). */
export interface FileNames {
  old: string | null;
  new: string | null;
  /**
   * A traditional diff whose `---` and `+++` names differ (`diff -u f.orig f`): `old`/`new` hold
   * the name git would edit, this the other one, edited when only it exists.
   */
  other?: string;
}

const DEV_NULL = '/dev/null';

type PathField = { ok: true; path: string | null } | { ok: false; reason: string };

/**
 * A `---`/`+++` path field: quoted, or up to a tab (`diff -u` puts a timestamp there, git a tab
 * after a name with spaces); trailing spaces are dropped. `/dev/null` is null.
 */
export function readPathField(field: string): PathField {
  if (field.startsWith('"')) {
    const quoted = readQuotedPath(field);
    if (quoted === null) {
      return { ok: false, reason: 'its quoted name is malformed or is not valid UTF-8 once unquoted' };
    }
    // Shell-style partial quoting (`"a/"sub/f`, as `diff -u "a/"sub/f` writes it) continues the name.
    const tab = quoted.rest.indexOf('\t');
    const rest = trimTrailing(tab === -1 ? quoted.rest : quoted.rest.slice(0, tab), ' \r');
    if (rest.includes('"')) return { ok: false, reason: 'its name mixes several quoted parts' };
    return { ok: true, path: quoted.path + rest };
  }
  const tab = field.indexOf('\t');
  const path = trimTrailing(tab === -1 ? withoutSpacedTimestamp(field) : field.slice(0, tab), ' \r');
  if (path === '') return { ok: false, reason: 'it names no file' };
  return { ok: true, path: path === DEV_NULL ? null : path };
}

/**
 * A timestamp after spaces rather than a tab (a diff pasted through something that turned the tab
 * into spaces): `2024-01-02 10:00:00[.frac] [+0100]` or ctime's `Tue Jan  2 10:00:00 2024`. GNU
 * patch strips it the same way; a name never ends like that.
 */
const TIMESTAMP_AT_END =
  /(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?: ?(?:[-+]\d\d:?\d\d|Z|UTC|GMT))?|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d \d{4})$/;

/**
 * The field split at a spaced timestamp: the name before the spaces and the timestamp, or null.
 * Found without a leading ` +` in the pattern: V8 would retry that from every space of a long run.
 */
function splitSpacedTimestamp(field: string): { name: string; timestamp: string } | null {
  const trimmed = trimTrailing(field, ' \r');
  const found = TIMESTAMP_AT_END.exec(trimmed);
  if (found === null || trimmed[found.index - 1] !== ' ') return null;
  return { name: trimTrailing(trimmed.slice(0, found.index), ' '), timestamp: found[0] };
}

function withoutSpacedTimestamp(field: string): string {
  return splitSpacedTimestamp(field)?.name ?? field;
}

/** `a/x` and `b/y` lose their prefixes. */
function stripPrefix(path: string | null, prefix: 'a/' | 'b/'): string | null {
  return path?.startsWith(prefix) ? path.slice(2) : path;
}

/** A name's first folder and the rest: `old/src/x` -> `src/x`; null without a folder. */
function belowFirstFolder(path: string | null): string | null {
  const slash = path?.indexOf('/') ?? -1;
  return path === null || slash <= 0 || slash === path.length - 1 ? null : path.slice(slash + 1);
}

/**
 * The two names of a section as `patch -p1` reads them: when both have a first folder and agree
 * below it (`b/x` and `a/x`, `old/x` and `new/x` from `diff -r old new`), that folder goes on both
 * sides (`folder` is the new side's name as written); otherwise git's `a/` and `b/` go.
 */
function stripFirstFolders(
  old: string | null,
  neu: string | null,
): { old: string | null; neu: string | null; folder?: string } {
  const oldRest = belowFirstFolder(old);
  if (oldRest !== null && oldRest === belowFirstFolder(neu)) {
    const conventional = old!.startsWith('a/') && neu!.startsWith('b/');
    return { old: oldRest, neu: oldRest, ...(!conventional && { folder: neu! }) };
  }
  return { old: stripPrefix(old, 'a/'), neu: stripPrefix(neu, 'b/') };
}

/** The timestamp of a `---`/`+++` line (after its last tab, or after spaces), when it has one. */
function timestampOf(field: string): string | null {
  const tab = field.lastIndexOf('\t');
  if (tab !== -1) return trimTrailing(field.slice(tab + 1), ' \r');
  return splitSpacedTimestamp(field)?.timestamp ?? null;
}

/** GNU diff's `YYYY-MM-DD hh:mm:ss[.fraction] ±hhmm` on the day of the epoch, either side of GMT. */
const EPOCH_STAMP =
  /^(1969-12-31|1970-01-01) ([0-2][0-9]):([0-5][0-9]):00(?:\.0+)? ([-+])([0-2][0-9]):?([0-5][0-9])$/;

/**
 * GNU `diff -N` marks an absent file with the epoch as its time (`1970-01-01 00:00:00 +0000`,
 * or the same instant in any time zone), as git's `has_epoch_timestamp` reads it.
 */
export function hasEpochTimestamp(field: string): boolean {
  const stamp = timestampOf(field);
  const m = stamp === null ? null : EPOCH_STAMP.exec(stamp);
  if (m === null) return false;
  const epochMinutes = m[1] === '1969-12-31' ? 24 * 60 : 0;
  const zone = (Number(m[5]) * 60 + Number(m[6])) * (m[4] === '-' ? -1 : 1);
  return Number(m[2]) * 60 + Number(m[3]) - zone === epochMinutes;
}

/** git's choice between differing `---`/`+++` names: the `+++` one, unless the `---` one is a shorter prefix of it (`f` and `f.new`). */
function preferredName(old: string, neu: string): string {
  return old.length < neu.length && neu.startsWith(old) ? old : neu;
}

/** The names of a `---`/`+++` pair with their first folders stripped (null: `/dev/null`). */
function dashPaths(
  paths: NonNullable<RawSection['paths']>,
  lineOf: LineOf,
): { old: string | null; neu: string | null; folder?: string } | EditError {
  const oldField = readPathField(paths.old);
  if (!oldField.ok)
    return parseError(`the '---' line cannot be read: ${oldField.reason}`, lineOf(paths.offset));
  const newField = readPathField(paths.new);
  if (!newField.ok)
    return parseError(`the '+++' line cannot be read: ${newField.reason}`, plusLine(paths, lineOf));
  return stripFirstFolders(oldField.path, newField.path);
}

/** The names of a traditional section (`---`/`+++` without `diff --git`). */
export function traditionalNames(
  paths: NonNullable<RawSection['paths']>,
  lineOf: LineOf,
): FileNames | EditError {
  const names = dashPaths(paths, lineOf);
  if ('code' in names) return names;
  const { old, neu } = names;
  const created = old === null || hasEpochTimestamp(paths.old);
  const deleted = neu === null || hasEpochTimestamp(paths.new);
  if (created && deleted) {
    return parseError(
      "both '---' and '+++' say the file is absent (/dev/null or an epoch timestamp): the diff names no file",
      plusLine(paths, lineOf),
    );
  }
  if (created) return { old: null, new: neu };
  if (deleted) return { old, new: null };
  // `diff -r old new`: the name below the folders is edited, the new side's as written when only it exists.
  if (names.folder !== undefined) return { old, new: neu, other: names.folder };
  if (old === null || neu === null || old === neu) return { old, new: neu };
  const preferred = preferredName(old, neu);
  return { old: preferred, new: preferred, other: preferred === old ? neu : old };
}

/** The names of a git section, checked against each other. */
export function gitNames(section: RawSection & { git: string }, lineOf: LineOf): FileNames | EditError {
  const flags = gitFlags(section, lineOf);
  if ('code' in flags) return flags;
  const { created, deleted, from, to } = flags;
  const headerPair = gitHeaderPaths(section.git);
  // Rename and copy lines carry no prefix; the `diff --git` line does.
  const expected =
    from !== undefined && to !== undefined
      ? { old: from.path, new: to.path }
      : headerPair === null
        ? null
        : headerNames(headerPair);
  let names: FileNames = expected ?? { old: null, new: null };
  if (section.paths !== null) {
    const sides = dashNames(
      section.paths,
      expected,
      { created, deleted, renamed: from !== undefined },
      lineOf,
    );
    if ('code' in sides) return sides;
    names = sides;
  }
  if (created) names = { old: null, new: names.new };
  if (deleted) names = { old: names.old, new: null };
  if (names.old === null && names.new === null) {
    return parseError(
      "cannot tell which file this section changes (no '---'/'+++' pair, no rename lines, and an unclear 'diff --git' line)",
      lineOf(section.offset),
    );
  }
  if (from === undefined && names.old !== null && names.new !== null && names.old !== names.new) {
    return parseError(
      `the section names two files (${names.old} and ${names.new}) but has no 'rename from'/'rename to' ` +
        "(or 'copy from'/'copy to') lines; a rename needs them, an edit names one file",
      lineOf(section.offset),
    );
  }
  return names;
}

/** The `diff --git` line's names with their first folders stripped as `---`/`+++`'s are. */
function headerNames([old, neu]: [string, string]): { old: string | null; new: string | null } {
  const stripped = stripFirstFolders(old, neu);
  return { old: stripped.old, new: stripped.neu };
}

interface GitFlags {
  created: boolean;
  deleted: boolean;
  /** `rename from` / `copy from`, and their pair. */
  from?: { path: string; offset: number };
  to?: { path: string; offset: number };
}

/** git's headers that say what happens to the file, refusing those that contradict each other. */
function gitFlags(section: RawSection, lineOf: LineOf): GitFlags | EditError {
  const newFile = header(section, 'new file mode');
  const deletedFile = header(section, 'deleted file mode');
  const renameFrom = header(section, 'rename from') ?? header(section, 'rename old');
  const renameTo = header(section, 'rename to') ?? header(section, 'rename new');
  const copyFrom = header(section, 'copy from');
  const copyTo = header(section, 'copy to');
  const conflict = (a: string, b: { offset: number }, c: string) =>
    parseError(`'${a}' and '${c}' contradict each other: a file cannot be both`, lineOf(b.offset));
  if (newFile && deletedFile)
    return conflict('new file mode', laterOf(newFile, deletedFile), 'deleted file mode');
  for (const [name, line] of [
    ['rename from', renameFrom],
    ['rename to', renameTo],
    ['copy from', copyFrom],
    ['copy to', copyTo],
  ] as const) {
    if (line === undefined) continue;
    if (newFile) return conflict('new file mode', laterOf(newFile, line), name);
    if (deletedFile) return conflict('deleted file mode', laterOf(deletedFile, line), name);
  }
  if ((renameFrom || renameTo) && (copyFrom || copyTo)) {
    return conflict('rename', laterOf((renameFrom ?? renameTo)!, (copyFrom ?? copyTo)!), 'copy');
  }
  const oldMode = header(section, 'old mode');
  const newMode = header(section, 'new mode');
  if (newFile && oldMode) return conflict('new file mode', laterOf(newFile, oldMode), 'old mode');
  if (deletedFile && newMode) return conflict('deleted file mode', laterOf(deletedFile, newMode), 'new mode');
  const from = renameFrom ?? copyFrom;
  const to = renameTo ?? copyTo;
  if ((from === undefined) !== (to === undefined)) {
    const present = (from ?? to)!;
    const kind = renameFrom || renameTo ? 'rename' : 'copy';
    return parseError(
      `a '${kind} ${from ? 'from' : 'to'}' line needs its '${kind} ${from ? 'to' : 'from'}' line`,
      lineOf(present.offset),
    );
  }
  if (from === undefined || to === undefined)
    return { created: newFile !== undefined, deleted: deletedFile !== undefined };
  const fromPath = renamePath(from.value);
  const toPath = renamePath(to.value);
  if (fromPath === null) return parseError('the file name of this line cannot be read', lineOf(from.offset));
  if (toPath === null) return parseError('the file name of this line cannot be read', lineOf(to.offset));
  return {
    created: false,
    deleted: false,
    from: { path: fromPath, offset: from.offset },
    to: { path: toPath, offset: to.offset },
  };
}

function laterOf<T extends { offset: number }>(a: T, b: T): T {
  return a.offset > b.offset ? a : b;
}

/** A rename or copy line's name: quoted, or the rest of the line. */
function renamePath(value: string): string | null {
  const field = readPathField(value);
  return field.ok ? field.path : null;
}

/** The `---`/`+++` names of a git section, which must be those its other headers give. */
function dashNames(
  paths: NonNullable<RawSection['paths']>,
  expected: { old: string | null; new: string | null } | null,
  flags: { created: boolean; deleted: boolean; renamed: boolean },
  lineOf: LineOf,
): FileNames | EditError {
  const names = dashPaths(paths, lineOf);
  if ('code' in names) return names;
  const { old, neu } = names;
  const mismatch =
    checkSide('---', old, expected?.old, flags.created, 'new file mode', lineOf(paths.offset)) ??
    checkSide('+++', neu, expected?.new, flags.deleted, 'deleted file mode', plusLine(paths, lineOf));
  if (mismatch !== null) return mismatch;
  if (flags.renamed && (old === null || neu === null)) {
    const line = old === null ? lineOf(paths.offset) : plusLine(paths, lineOf);
    return parseError(
      "a renamed or copied file exists on both sides, so neither '---' nor '+++' may be /dev/null",
      line,
    );
  }
  if (old === null && neu === null) {
    return parseError(
      "both '---' and '+++' are /dev/null: the section names no file",
      plusLine(paths, lineOf),
    );
  }
  return { old, new: neu };
}

/**
 * One side of `---`/`+++` against the section's other headers: `/dev/null` exactly when the file
 * is absent on that side (it may stand for a created or deleted file the headers do not mark), else
 * the name the headers give.
 */
function checkSide(
  marker: '---' | '+++',
  name: string | null,
  expected: string | null | undefined,
  absent: boolean,
  absentHeader: string,
  line: number,
): EditError | null {
  if (absent && name !== null) {
    return parseError(`'${absentHeader}' says this side is /dev/null, but '${marker}' names ${name}`, line);
  }
  if (name === null || expected === null || expected === undefined || name === expected) return null;
  return parseError(
    `'${marker} ${name}' contradicts the section's header, which names ${expected} ` +
      "(a rename needs 'rename from'/'rename to' lines)",
    line,
  );
}

/**
 * The two paths of `diff --git a/x b/y`: quoted ones, or, unquoted, the split that gives the same
 * name on both sides (git's own rule for names with spaces), else the split at the last ` b/`.
 */
function gitHeaderPaths(text: string): [string, string] | null {
  const trimmed = trimTrailing(text, ' \r');
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
