/**
 * A file name as models write it on the line before a code block, read the way Aider reads it:
 * `**path**`, `` `path` ``, `path:`, `# path`, `### path`; `...` (the prompt's own placeholder) is
 * no name, and neither is a sentence ("And in the same file:").
 */

/** Wrappers around a name, peeled one at a time until none is left. */
const WRAPPED = /^(\*\*|\*|`|"|')(.+)\1$/;
/** A markdown heading's or a comment's `#`s, or `File:` / `Filename:` said before the name. */
const LEAD = /^(?:#+[ \t]*|(?:file(?:name)?|path)[ \t]*:[ \t]*)/i;
/** What a path looks like when nothing else says it is one: a folder or an extension. */
const PATH_CHARS = /^[^\s`*'"<>|]*$/;

/** The name a path line gives, or null when it gives none. */
export function pathFromLine(text: string): string | null {
  let path = text.trim();
  for (;;) {
    const peeled = path.replace(LEAD, '').replace(WRAPPED, '$2').replace(/:$/, '').trim();
    if (peeled === path) break;
    path = peeled;
  }
  if (path === '' || path === '...' || isProse(text, path)) return null;
  return path;
}

/** Files without a folder or an extension that models name bare. */
const EXTENSIONLESS = /^(?:[A-Z][a-z]*file|LICEN[CS]E|README|CODEOWNERS|CHANGELOG|NOTICE|AUTHORS)$/;
/** The name was marked as one: `` `x` ``, `**x**`, quoted, or said after `File:`. */
const MARKED = /^[ \t]*(?:#+[ \t]*)?(?:\*|`|"|'|(?:file(?:name)?|path)[ \t]*:)/i;

/**
 * The name a line before a whole-file block gives: as `pathFromLine`, and only when it looks like
 * a path, is a well-known extensionless file, or was marked as a name; "Run:" is prose, not a file.
 */
export function fileNameFromLine(text: string): string | null {
  const path = pathFromLine(text);
  if (path === null) return null;
  if (looksLikePath(path) || EXTENSIONLESS.test(path) || MARKED.test(text)) return path;
  return null;
}

/**
 * A sentence, not a name: a name with spaces that ends with a colon, or of four words or more.
 * Names with spaces exist, sentences before a block are far more common.
 */
export function isProse(text: string, path: string): boolean {
  if (!/\s/.test(path)) return false;
  return /:\s*$/.test(text) || path.split(/\s+/).length >= 4;
}

/** A single token with a folder or an extension: `src/app.py`, `README.md`. */
export function looksLikePath(word: string): boolean {
  return PATH_CHARS.test(word) && /[/.]/.test(word) && word !== '...' && !/^\.+$/.test(word);
}
