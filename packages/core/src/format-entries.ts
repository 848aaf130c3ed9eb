import { matchesGlob } from './permission-rules.js';

/**
 * What formats the files one `format` glob of `.patchsmith.json` matches: a command (an argv
 * array, run without a shell, the new content on stdin, the formatted content on stdout; `{path}`
 * in an argument is the file's root-relative path), one of the formatters patchsmith knows, or
 * `false` for files that are never formatted (auto-detection included).
 */
export type FormatEntry = readonly string[] | 'prettier' | 'biome' | false;

/** The `format` section: glob -> entry, in the config's order; the first glob that matches decides. */
export type FormatEntries = Readonly<Record<string, FormatEntry>>;

/** The entry of the first glob that matches a root-relative path, or undefined when none does. */
export function formatEntryFor(path: string, entries: FormatEntries): FormatEntry | undefined {
  for (const [glob, entry] of Object.entries(entries)) if (matchesGlob(path, glob)) return entry;
  return undefined;
}
