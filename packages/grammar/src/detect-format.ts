/**
 * Tells which format a patch text is in, from its first distinguishing line: JSON text-editor
 * commands (str_replace), `*** Begin Patch` (Codex), a SEARCH marker (SEARCH/REPLACE), or
 * `diff --git` / a `---` line followed by `+++` (unified). Undecided text reads as Codex, whose
 * parser then says what it expected.
 */
import type { PatchFormat } from './script.js';

const BEGIN_PATCH = /^[ \t]*\*\*\* Begin Patch[ \t]*$/;
const SEARCH_MARKER = /^[ \t]*(?:<{5,9}|-{3,})[ \t]*SEARCH>?[ \t]*$/;
const GIT_HEADER = /^diff --git /;
const OLD_FILE = /^--- \S/;
const NEW_FILE = /^\+\+\+ \S/;

export function detectFormat(text: string): PatchFormat {
  if (looksLikeJsonCommands(text)) return 'str_replace';
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (BEGIN_PATCH.test(line)) return 'codex';
    if (SEARCH_MARKER.test(line)) return 'search-replace';
    if (GIT_HEADER.test(line)) return 'unified';
    if (OLD_FILE.test(line) && NEW_FILE.test(lines[i + 1] ?? '')) return 'unified';
  }
  return 'codex';
}

/** A JSON object or array whose (first) element has a `command` field. */
function looksLikeJsonCommands(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'object' && first !== null && 'command' in first;
  } catch {
    return false;
  }
}
