/**
 * Tells which format a patch text is in, from its first distinguishing line: JSON text-editor
 * commands (str_replace), `*** Begin Patch` or a Codex file header (Codex), a SEARCH marker
 * (SEARCH/REPLACE), or `diff --git` / a `---` line followed by `+++` (unified). Text with none of
 * them but a code block under a file name is whole-file edits; anything else reads as Codex,
 * whose parser then says what it expected.
 */
import type { PatchFormat } from '@patchsmith/core';
import { openingFence } from './fences.js';
import { looksLikePath, pathFromLine } from './path-line.js';
import { isCommandField } from './str-replace-aliases.js';
import { normalizeLines } from './unwrap.js';

const BEGIN_PATCH = /^[ \t]*\*\*\* Begin Patch[ \t]*$/;
/** A Codex file header: a patch whose `*** Begin Patch` was left out still starts with one. */
const CODEX_FILE_HEADER = /^[ \t]*\*\*\* (?:Add|Update|Delete) File: /;
const SEARCH_MARKER = /^[ \t]*(?:<{5,9}|-{3,})[ \t]*SEARCH>?[ \t]*$/;
const GIT_HEADER = /^diff --git /;
const OLD_FILE = /^--- \S/;
const NEW_FILE = /^\+\+\+ \S/;

export function detectFormat(input: string): PatchFormat {
  // A leading BOM (an editor's UTF-8 signature) is no part of the first line.
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (looksLikeJsonCommands(text)) return 'str_replace';
  return markedFormat(text) ?? (hasNamedBlock(text) ? 'whole-file' : 'codex');
}

/**
 * The format a marker line of the text names, or null when none does yet. Decided by the first
 * such line, so a prefix of a text that has one decides as the whole text does (what a stream
 * relies on); JSON and whole-file edits have no marker line and are decided by the whole text.
 */
export function markedFormat(text: string): PatchFormat | null {
  // Line by line with `indexOf`: the answer is usually on the first lines, so a large patch is
  // never split whole.
  let previous: string | null = null;
  for (let line = lineAt(text, 0); line !== null; line = lineAt(text, line.next)) {
    const format = formatAtLine(previous, line.text);
    if (format !== null) return format;
    previous = line.text;
  }
  return null;
}

/**
 * The format that `line` decides, given the line before it (null for the first): a `---` / `+++`
 * pair is decided at its second line, before `line`'s own markers, as a scan from the top would.
 */
export function formatAtLine(previous: string | null, line: string): PatchFormat | null {
  if (previous !== null && OLD_FILE.test(previous) && NEW_FILE.test(line)) return 'unified';
  if (BEGIN_PATCH.test(line) || CODEX_FILE_HEADER.test(line)) return 'codex';
  if (SEARCH_MARKER.test(line)) return 'search-replace';
  if (GIT_HEADER.test(line)) return 'unified';
  return null;
}

/** A code block whose fence's info string, or the line before it, names a file by its path. */
function hasNamedBlock(text: string): boolean {
  const lines = normalizeLines(text);
  let previous = '';
  for (const line of lines) {
    const fence = openingFence(line);
    if (fence !== null) {
      const named = pathFromLine(previous);
      if (fence.info.some(looksLikePath) || (named !== null && looksLikePath(named))) return true;
    }
    if (!/^[ \t]*$/.test(line)) previous = line;
  }
  return false;
}

/** The `\n`-separated line starting at `start` (one trailing `\r` dropped) and where the next starts; null past the end. */
function lineAt(text: string, start: number): { text: string; next: number } | null {
  if (start > text.length) return null;
  const newline = text.indexOf('\n', start);
  const end = newline === -1 ? text.length : newline;
  const last = end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end;
  return { text: text.slice(start, last), next: newline === -1 ? text.length + 1 : newline + 1 };
}

const CR = 0x0d;

/** A JSON object or array whose (first) element has a text-editor field (`command`, `old_string`, `file_path`...). */
function looksLikeJsonCommands(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'object' && first !== null && Object.keys(first).some(isCommandField);
  } catch {
    return false;
  }
}
