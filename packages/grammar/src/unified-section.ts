/**
 * What the unified-diff grammar (`unified.peggy`) returns, with body offsets, and the helpers that
 * the files giving it meaning share.
 */
import type { EditError, LineHint } from '@patchsmith/core';

/** One file's section: a `diff --git` line and its extended headers, or a `---`/`+++` pair, then hunks. */
export interface RawSection {
  git: string | null;
  extended: { name: string; value: string; offset: number }[];
  paths: { old: string; new: string; offset: number } | null;
  hunks: RawHunk[];
  offset: number;
  /** Where the section ends: the next line is not part of it. */
  end: number;
}

export interface RawHunk {
  range: LineHint | null;
  lines: RawHunkLine[];
  offset: number;
}

export interface RawHunkLine {
  kind: 'context' | 'remove' | 'add' | 'no-newline';
  text: string;
  offset: number;
}

/** A hunk header outside any hunk (a patch fragment without header). */
export interface RawStray {
  stray: number;
}

export type RawItem = RawSection | RawStray;

/** Maps a body offset to its 1-based line in the input as given. */
export type LineOf = (offset: number) => number;

export function parseError(message: string, line: number, expected?: string): EditError {
  return {
    code: 'PARSE_ERROR',
    message: `line ${line}: ${message}`,
    line,
    ...(expected ? { expected } : {}),
  };
}

/** The first extended header line of that name. */
export function header(section: RawSection, name: string): { value: string; offset: number } | undefined {
  return section.extended.find((e) => e.name === name);
}

/** The line of the `+++` line of a section's `---`/`+++` pair. */
export function plusLine(paths: NonNullable<RawSection['paths']>, lineOf: LineOf): number {
  return lineOf(paths.offset) + 1;
}
