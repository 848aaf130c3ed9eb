/**
 * The edit script: what every input format compiles to, and what the planner consumes.
 * Every operation, chunk and line carries the 1-based line number in the input text as given
 * (before any wrapper was stripped), so errors can point back at what the model wrote.
 */

/** The formats that compile to an edit script. */
export type PatchFormat = 'codex' | 'unified' | 'search-replace' | 'str_replace';

export interface EditScript {
  format: PatchFormat;
  operations: Operation[];
}

export type Operation = AddFile | DeleteFile | UpdateFile;

/** `*** Add File: path` followed by `+` lines. The file's content is `lines` joined by `\n`, with a final `\n` when there is at least one line. */
export interface AddFile {
  kind: 'add';
  path: string;
  lines: string[];
  line: number;
}

/** `*** Delete File: path`. */
export interface DeleteFile {
  kind: 'delete';
  path: string;
  line: number;
}

/** `*** Update File: path`, optional `*** Move to: movePath`, then chunks (none for a pure rename). */
export interface UpdateFile {
  kind: 'update';
  path: string;
  movePath?: string;
  chunks: Chunk[];
  line: number;
}

/** A line-number hint from a unified-style `@@ -12,3 +12,4 @@` header (counts lines of the file before the patch). */
export interface LineHint {
  oldStart: number;
  oldLines?: number;
  newStart: number;
  newLines?: number;
}

/** An `@@ text` line: the model's statement of where the chunk belongs. */
export interface Anchor {
  text: string;
  line: number;
}

export type ChunkLineKind = 'context' | 'remove' | 'add';

export interface ChunkLine {
  kind: ChunkLineKind;
  /** The line's text without its ` `/`-`/`+` prefix and without a line ending. */
  text: string;
  line: number;
}

export interface Chunk {
  /** Stacked `@@ anchor` lines, in order; empty for a bare `@@` or an omitted header. */
  anchors: Anchor[];
  hint?: LineHint;
  lines: ChunkLine[];
  /** `*** End of File` followed the chunk: it must end at the file's last line. */
  endOfFile: boolean;
  /** Line of the chunk's first `@@` header, or of its first line when the header was omitted. */
  line: number;
}

/** The old side of a chunk (context and removed lines), in order. */
export function oldLines(chunk: Chunk): string[] {
  return chunk.lines.filter((l) => l.kind !== 'add').map((l) => l.text);
}

/** The new side of a chunk (context and added lines), in order. */
export function newLines(chunk: Chunk): string[] {
  return chunk.lines.filter((l) => l.kind !== 'remove').map((l) => l.text);
}
