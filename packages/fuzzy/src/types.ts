import type { Line, NearestRegion } from '@patchsmith/core';

/** The passes of SPEC §2, in the order they are tried. `similarity` exists only when opted in. */
export type MatchPass =
  | 'exact'
  | 'trailing-whitespace'
  | 'indentation'
  | 'trimmed'
  | 'lookalike'
  | 'similarity';

/**
 * A uniform indentation difference found by the `indentation` pass: `side: 'file'` means every
 * non-empty line of the file has `prefix` in front of the patch's text (added lines get it too);
 * `side: 'patch'` means the patch has it extra (added lines lose it where present).
 */
export interface IndentShift {
  prefix: string;
  side: 'file' | 'patch';
}

/** One line of what replaces the matched region: a file line kept with its own bytes, or patch text. */
export type ReplacementLine = { from: 'file'; index: number } | { from: 'patch'; text: string };

export interface LocateOptions {
  /** 0-based index of the first file line of the search region (the end of the previous chunk's match). */
  cursor: number;
  /** Take the first candidate instead of failing with AMBIGUOUS (the reference's behaviour). */
  firstMatch?: boolean;
  /**
   * Opt-in edit-distance pass after the five of SPEC §2: accept the region's most similar window
   * when its line similarity (0..1) is at least this. Off when absent.
   */
  similarity?: number;
  /**
   * Search a miss's nearest region (default true). Each search is bounded, but a caller locating
   * very many chunks turns it off once enough have failed: their sum is not.
   */
  nearest?: boolean;
}

export interface ChunkLocation {
  ok: true;
  /** 0-based index of the first matched file line (for a pure addition: where the lines are inserted). */
  start: number;
  /** How many file lines the match covers (0 for a pure addition). */
  length: number;
  /** What the matched lines become. */
  replacement: ReplacementLine[];
  pass: MatchPass;
  indent?: IndentShift;
  /** 0-based file lines of the anchors that led here, in order. */
  anchorLines: number[];
  /** The old lines' trailing empty line was dropped to find the match (SPEC §2 retry). */
  droppedTrailingEmptyLine: boolean;
  /** Where the next chunk of the same file starts its search. */
  cursor: number;
}

export interface ChunkMiss {
  ok: false;
  code: 'NO_MATCH' | 'AMBIGUOUS';
  message: string;
  /** 1-based file lines of every candidate (AMBIGUOUS). */
  candidates?: number[];
  nearest?: NearestRegion;
  /** Set when it was an anchor, not the chunk's lines, that failed. */
  anchor?: string;
}

export type LocateResult = ChunkLocation | ChunkMiss;

/**
 * A file's lines by position, without their endings: core's `LineModel` (each sliced from the
 * file's text when asked for) or a plain array.
 */
export interface LineList {
  readonly length: number;
  at(index: number): string | undefined;
}

/** A file's current lines with their endings by position: a plain array, or a `LineIndex`'s lines. */
export interface TextLines {
  readonly length: number;
  at(index: number): TextLine | undefined;
}

/** A file line with its own ending: core's line (`''` only on an unterminated last line). */
export type TextLine = Line;

/** A str_replace edit or a SEARCH/REPLACE block, as `locateText` takes it. */
export interface TextEdit {
  search: string;
  replace: string;
}

export interface TextLocateOptions {
  /** Replace every occurrence instead of requiring a unique one. */
  all?: boolean;
  /** Take the first candidate instead of failing with AMBIGUOUS. */
  firstMatch?: boolean;
  /** Match whole lines only: skip the exact-substring pass (SEARCH/REPLACE blocks). */
  wholeLines?: boolean;
  /** Search a miss's nearest region (default true), as `LocateOptions.nearest`. */
  nearest?: boolean;
  /**
   * 0-based line where the caller says the text starts (Roo Code's `:start_line:`): among several
   * candidates of the deciding pass, the one strictly nearest to it is taken (SPEC §2 line hints).
   */
  hint?: number;
}

/** An exact occurrence: the characters `[start, end)` of the file's text (its lines and endings joined). */
export interface SubstringMatch {
  start: number;
  end: number;
  /** 0-based line where it starts. */
  line: number;
}

/**
 * An exact occurrence in line coordinates: from `column` of `line` to `endColumn` of `endLine`
 * (exclusive); a column counts the characters of a line's text and then of its ending.
 */
export interface SubstringSpan {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A match of whole lines by passes 2–5 (or pass 1 for whole-line blocks). */
export interface LinesMatch {
  /** 0-based first file line. */
  start: number;
  length: number;
  /** What the matched lines become: lines a line diff finds equal in search and replace keep the file's bytes. */
  replacement: ReplacementLine[];
  indent?: IndentShift;
}

export type TextLocation =
  | {
      ok: true;
      kind: 'substring';
      pass: 'exact';
      /** Non-overlapping, in file order. */
      matches: SubstringMatch[];
      /** The replacement with its line breaks written as the file's first ending. */
      replacement: string;
    }
  | { ok: true; kind: 'lines'; pass: MatchPass; matches: LinesMatch[] };

export type TextLocateResult = TextLocation | ChunkMiss;

/** `TextLocation` with its exact occurrences in line coordinates (what `locateIndexed` finds). */
export type IndexedTextLocation =
  | {
      ok: true;
      kind: 'substring';
      pass: 'exact';
      /** Non-overlapping, in file order. */
      spans: SubstringSpan[];
      /** The replacement with its line breaks written as the file's first ending. */
      replacement: string;
    }
  | Extract<TextLocation, { kind: 'lines' }>;

export type IndexedTextLocateResult = IndexedTextLocation | ChunkMiss;
