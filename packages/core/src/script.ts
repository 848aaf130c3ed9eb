/**
 * The edit script: what every input format compiles to, and what the planner consumes.
 * Every operation, chunk and line carries the 1-based line number in the input text as given
 * (before any wrapper was stripped), so errors can point back at what the model wrote.
 */

/** The formats that compile to an edit script. */
export type PatchFormat = 'codex' | 'unified' | 'search-replace' | 'str_replace' | 'whole-file';

export interface EditScript {
  format: PatchFormat;
  operations: Operation[];
}

export type Operation = AddFile | DeleteFile | UpdateFile | ReplaceText | InsertText | BinaryPatch;

/**
 * `*** Add File: path` followed by `+` lines. The file's content is `lines` joined by `\n`, with a
 * final `\n` when there is at least one line, unless `content` gives the exact text (str_replace
 * `create`, a unified diff's new file, a SEARCH/REPLACE block creating a file); `lines` then holds
 * `content` split at `\n` for readers that only look at lines.
 */
export interface AddFile {
  kind: 'add';
  path: string;
  lines: string[];
  line: number;
  /** The exact text to write (no newline added or removed). */
  content?: string;
  /**
   * Permission bits to give the file (a unified diff's `new file mode 100755`: `0o755`), or
   * `SYMLINK_MODE` (`new file mode 120000`): a symbolic link whose target is the content.
   */
  mode?: number;
  /**
   * The file must not exist yet (a str_replace with an empty `old_str`): that edit means "create",
   * and overwriting would lose a file the model never showed.
   */
  createOnly?: boolean;
}

/** `*** Delete File: path`. */
export interface DeleteFile {
  kind: 'delete';
  path: string;
  line: number;
  /**
   * A unified diff's hunks of the deleted file: together their removed lines must be the whole
   * file, else the deletion does not apply (as git refuses a removal patch that leaves content).
   */
  chunks?: Chunk[];
  /** See `UpdateFile.oldNoNewline`. */
  oldNoNewline?: number;
  /** See `UpdateFile.link`. */
  link?: boolean;
}

/** `*** Update File: path`, optional `*** Move to: movePath`, then chunks (none for a pure rename). */
export interface UpdateFile {
  kind: 'update';
  path: string;
  movePath?: string;
  chunks: Chunk[];
  line: number;
  /** `movePath` is a copy's destination (git's `copy from` / `copy to`): the source stays. */
  copy?: boolean;
  /**
   * Permission bits to set (a unified diff's `new mode 100755`: `0o755`), or `SYMLINK_MODE` for a
   * symbolic link; kept when absent.
   */
  mode?: number;
  /**
   * The path is a symbolic link before the patch (git's mode 120000 on its old side): it is read
   * and replaced as a link (its content is its target), never followed.
   */
  link?: boolean;
  /**
   * The final-newline state the result must have (a unified diff's `\ No newline at end of file`),
   * overriding the keep-the-file's-state rule; kept when absent.
   */
  finalNewline?: boolean;
  /**
   * Line texts carry a final `\r` where the line ends with CRLF (a byte-exact diff such as
   * `git diff` of CRLF lines): they match the file's lines with their endings, and added lines
   * end with CRLF or LF as written instead of taking the file's first ending.
   */
  exactEndings?: boolean;
  /**
   * A traditional diff's other name (its `---` and `+++` names differ and no header says rename,
   * `diff -u f.orig f`): `path` is edited when it exists, else this one when it does. Never a rename.
   */
  otherPath?: string;
  /**
   * Line of a unified diff's `\ No newline at end of file` after a context or removed line: the
   * file must end without a final newline, else the patch does not apply (NO_MATCH).
   */
  oldNoNewline?: number;
}

/**
 * Replace `search` by `replace` in the file (str_replace, a SEARCH/REPLACE block). Located by the
 * passes of SPEC §2 against the file as earlier operations left it (no cursor); unique unless
 * `all`. An empty `search` creates the file with `replace`, or appends `replace` when it exists.
 */
export interface ReplaceText {
  kind: 'replace';
  path: string;
  search: string;
  replace: string;
  /** Replace every occurrence (str_replace `replace_all`). */
  all: boolean;
  /**
   * Match whole lines only (SEARCH/REPLACE blocks); otherwise an exact substring, which may be part
   * of a line, is tried first (str_replace).
   */
  wholeLines: boolean;
  line: number;
  /**
   * 1-based line of the file (before the patch) where the model says `search` starts (Roo Code's
   * `:start_line:`, or the `N | ` prefixes it copied): a hint that breaks ties, never a position.
   */
  startLine?: number;
}

/** Insert `text` as whole lines after line `after` of the file (0: at the top); str_replace `insert`. */
export interface InsertText {
  kind: 'insert';
  path: string;
  after: number;
  /** The lines to insert; one final newline ends the last of them rather than adding an empty line. */
  text: string;
  line: number;
}

/**
 * A `GIT binary patch` section of a unified diff (`git diff --binary`): the file's new bytes as git's
 * `literal` (the whole content) or `delta` (copy/insert instructions over the old bytes) hunk, each
 * already base85-decoded and inflated. `change` says what the section does to `path` (the old name;
 * the new file's name when created). The text-only rule of SPEC §3 does not apply to it.
 */
export interface BinaryPatch {
  kind: 'binary';
  change: 'add' | 'update' | 'delete';
  path: string;
  /** A rename's (or, with `copy`, a copy's) destination. */
  movePath?: string;
  copy?: boolean;
  /** Permission bits to set (`new mode 100755`, `new file mode 100755`: `0o755`); kept when absent. */
  mode?: number;
  /**
   * The `index <old>..<new>` line's blob ids (lowercase hex, possibly abbreviated): the file must be
   * the old blob (else STALE) and the result must be the new one. Absent without an index line.
   */
  oldId?: string;
  newId?: string;
  /** The hunk that turns the old bytes into the new ones. */
  forward: BinaryHunk;
  /** git's second hunk, which turns the new bytes back into the old: checked when present. */
  reverse?: BinaryHunk;
  line: number;
}

/** One hunk of a `GIT binary patch`: `literal <size>` or `delta <size>` and its data. */
export interface BinaryHunk {
  method: 'literal' | 'delta';
  /** The inflated data: the content itself (literal) or git's delta instructions (delta). */
  data: Uint8Array;
  /** Line of the `literal`/`delta` header in the input. */
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

/**
 * One command of an agent SDK's text-editor tool (str_replace input), as those tools define it.
 * `view` is not an edit and is answered by the adapters directly.
 */
export type StrReplaceCommand =
  | { command: 'str_replace'; path: string; old_str: string; new_str?: string; replace_all?: boolean }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'insert'; path: string; insert_line: number; new_str: string };
