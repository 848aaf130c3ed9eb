import { join, posix, resolve } from 'node:path';
import { readFiles } from '@patchsmith/apply';
import {
  diskFs,
  type ErrorCode,
  hashBytes,
  IO_CONCURRENCY,
  mapLimit,
  type PatchsmithFs,
  trimTrailing,
} from '@patchsmith/core';
import { isNotebookPath, notebookView, resolvePatchPath } from '@patchsmith/planner';
import { fsOption } from './fs-option.js';
import { rememberViewed } from './read-versions.js';

export interface ViewFileOptions {
  /** The folder paths are relative to. Default: the working directory. */
  root?: string;
  /** File or folder, relative to the root or absolute inside it. */
  path: string;
  /** `[start, end]` 1-based inclusive lines; `end` -1 means to the end of the file. */
  view_range?: readonly [number, number] | readonly number[];
  /** Most entries a folder listing shows. */
  maxEntries?: number;
  /**
   * Longest text a file view returns, in characters: a longer one ends at the last whole line that
   * fits, with a note saying which lines were shown and how to see the rest. Default: no limit.
   */
  maxCharacters?: number;
  /** The file system to read (see `RunEditOptions.fs`). Default: the disk. */
  fs?: PatchsmithFs;
}

export type ViewFileResult =
  | {
      ok: true;
      kind: 'file' | 'directory';
      /** Canonical path relative to the root ('.' for the root itself). */
      path: string;
      /** What the model reads: a heading line, then numbered lines (`cat -n` style) or the listing. */
      text: string;
      /**
       * A file's sha256 hex: what a host passes back as `readVersions[path] = { hash }` so that an
       * edit written from this view is merged if the file changes meanwhile (the content is kept
       * in this process for that).
       */
      hash?: string;
      /** The file view was cut at `maxCharacters` (its text ends with a note saying so). */
      truncated?: boolean;
    }
  | { ok: false; code: ErrorCode; message: string; path: string };

const LISTING_DEPTH = 2;
const DEFAULT_MAX_ENTRIES = 1000;
const decoder = new TextDecoder('utf-8', { fatal: true });

function failure(code: ErrorCode, message: string, path: string): ViewFileResult {
  return { ok: false, code, message, path };
}

/** The path names the root folder itself ('.', '', '/abs/root', 'root/'). */
function namesRoot(root: string, raw: string): boolean {
  const trimmed = trimTrailing(raw, '/');
  return trimmed === '' || trimmed === '.' || posix.resolve(root, trimmed) === posix.resolve(root);
}

/** An entry a listing leaves out: hidden files (`.git`, private state) and dependency folders. */
function isSkippedEntry(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** `cat -n` numbering, the way the Anthropic text editor's reference `view` prints lines. */
function numberLines(lines: string[], first: number): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');
}

/** The file's lines for display: line endings dropped, no phantom line after a final newline. */
function displayLines(text: string): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

type Range = { ok: true; start: number; end: number } | { ok: false; message: string };

/** Checks a view range against the file, with the reference implementation's wording. */
function checkRange(range: readonly number[], lineCount: number): Range {
  const [start, end] = range;
  if (range.length !== 2 || start === undefined || end === undefined) {
    return { ok: false, message: 'Invalid `view_range`. It should be a list of two integers.' };
  }
  if (start < 1 || start > lineCount) {
    return {
      ok: false,
      message: `Invalid \`view_range\`: [${start}, ${end}]. Its first element \`${start}\` should be within the range of lines of the file: [1, ${lineCount}]`,
    };
  }
  if (end !== -1 && (end < start || end > lineCount)) {
    return {
      ok: false,
      message: `Invalid \`view_range\`: [${start}, ${end}]. Its second element \`${end}\` should be -1 or within [${start}, ${lineCount}]`,
    };
  }
  return { ok: true, start, end: end === -1 ? lineCount : end };
}

/** A folder's entries that a listing shows, by name, each with whether it is a folder itself (not followed). */
async function shownChildren(fs: PatchsmithFs, dir: string): Promise<{ name: string; folder: boolean }[]> {
  const names = (await fs.readdir(dir)).filter((name) => !isSkippedEntry(name)).sort();
  // A symlinked folder is listed, never entered: it may lead out of the root.
  const stats = await mapLimit(names, IO_CONCURRENCY, (name) => fs.lstat(join(dir, name)).catch(() => null));
  return names.map((name, i) => ({ name, folder: stats[i]?.isDirectory() ?? false }));
}

async function listFolder(
  fs: PatchsmithFs,
  absolute: string,
  shownAs: string,
  maxEntries: number,
): Promise<string> {
  const entries: string[] = [];
  let more = 0;
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    for (const child of await shownChildren(fs, dir)) {
      const rel = prefix === '' ? child.name : `${prefix}/${child.name}`;
      if (entries.length < maxEntries) entries.push(child.folder ? `${rel}/` : rel);
      else more++;
      if (child.folder && depth < LISTING_DEPTH) await walk(join(dir, child.name), rel, depth + 1);
    }
  };
  await walk(absolute, '', 1);
  const heading = `Here are the files and directories up to ${LISTING_DEPTH} levels deep in ${shownAs}, excluding hidden items and node_modules:`;
  const tail = more > 0 ? [`... and ${more} more`] : [];
  return [heading, ...entries, ...tail].join('\n');
}

/**
 * The Anthropic text editor's `view`, under the same path policy as edits: a file comes back with
 * numbered lines (optionally a range of them), a folder as a listing two levels deep. A path that
 * leads out of the root, into `.git/`, or nowhere is refused with the edit's error codes.
 */
export async function viewFile(options: ViewFileOptions): Promise<ViewFileResult> {
  const root = resolve(options.root ?? process.cwd());
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const fs = options.fs ?? diskFs;
  if (namesRoot(root, options.path)) {
    return {
      ok: true,
      kind: 'directory',
      path: '.',
      text: await listFolder(fs, root, options.path, maxEntries),
    };
  }
  const resolved = resolvePatchPath(root, trimTrailing(options.path, '/'));
  if (!resolved.ok) return failure(resolved.code, resolved.message, options.path);
  const rel = resolved.path;
  const state = (await readFiles(root, [rel], fsOption(options.fs))).get(rel)!;
  switch (state.kind) {
    case 'refused':
      return failure(state.code, state.message, rel);
    case 'missing':
      return failure(
        'FILE_NOT_FOUND',
        `The path ${options.path} does not exist. Please provide a valid path.`,
        rel,
      );
    case 'directory':
      if (options.view_range !== undefined) {
        return failure(
          'INVALID_EDIT',
          'The `view_range` parameter is not allowed when `path` points to a directory.',
          rel,
        );
      }
      return {
        ok: true,
        kind: 'directory',
        path: rel,
        text: await listFolder(fs, join(root, rel), options.path, maxEntries),
      };
    case 'file':
      break;
  }
  let text: string;
  try {
    text = decoder.decode(state.bytes);
  } catch {
    return failure('BINARY_FILE', `${rel} is not a UTF-8 text file`, rel);
  }
  if (text.includes('\0'))
    return failure('BINARY_FILE', `${rel} holds NUL bytes; it is not a text file`, rel);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // A notebook is shown as edits see it: by cell, not as JSON.
  const cells = isNotebookPath(rel) ? notebookView(state.bytes) : null;
  if (cells !== null) text = cells;
  const lines = displayLines(text);
  let first = 1;
  let shown = lines;
  if (options.view_range !== undefined) {
    const range = checkRange(options.view_range, lines.length);
    if (!range.ok) return failure('INVALID_EDIT', range.message, rel);
    first = range.start;
    shown = lines.slice(range.start - 1, range.end);
  }
  const heading =
    cells === null
      ? `Here's the result of running \`cat -n\` on ${options.path}:`
      : `Here are the cells of the notebook ${options.path} (edits match these lines; a line \`# %% [code]\` or \`# %% [markdown]\` starts a new cell; remove a cell's marker line and its lines to delete it):`;
  const hash = state.hash ?? hashBytes(state.bytes);
  rememberViewed(join(root, rel), hash, state.bytes);
  const whole = `${heading}\n${numberLines(shown, first)}\n`;
  if (options.maxCharacters === undefined || whole.length <= options.maxCharacters) {
    return { ok: true, kind: 'file', path: rel, text: whole, hash };
  }
  const kept = linesWithin(shown, first, options.maxCharacters - heading.length - 1);
  const last = first + kept - 1;
  const note =
    kept === 0
      ? `[truncated: line ${first} alone is longer than ${options.maxCharacters} characters; nothing shown]`
      : `[truncated at ${options.maxCharacters} characters: showing lines ${first}-${last} of ${lines.length}; use view_range [${last + 1}, -1] to see more]`;
  const body = kept === 0 ? '' : `${numberLines(shown.slice(0, kept), first)}\n`;
  return { ok: true, kind: 'file', path: rel, text: `${heading}\n${body}${note}\n`, hash, truncated: true };
}

/** How many of the lines, numbered from `first`, fit in `budget` characters (each with its line feed). */
function linesWithin(lines: string[], first: number, budget: number): number {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += numberLines([lines[i]!], first + i).length + 1;
    if (used > budget) return i;
  }
  return lines.length;
}
