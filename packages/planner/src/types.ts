import type { EditError, ErrorCode } from '@patchsmith/core';
import type { IndentShift, MatchPass } from '@patchsmith/fuzzy';
import type { MovedChange } from './three-way-merge.js';

/** What stat(2) said about a file when it was read: which file it was (device, inode) and its size, time and mode. */
export interface FileStat {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  mode: number;
}

/**
 * What the outside world says about one path before planning. The planner never reads a disk.
 * `realPath`: where the path really leads (root-relative, after symlinks) when that is another
 * name, so permission rules can be decided on both; the planner only carries it to the writes.
 * `hash`: the sha256 hex of `bytes`, when the reader has it already, so the plan's `before.hash`
 * is not computed a second time; it must be the hash of these bytes. `stat`: what the
 * reader's stat said, for a host that wants to tell a changed file cheaply (only a hash is sure).
 */
export type FileState =
  | { kind: 'file'; bytes: Uint8Array; mode: number; hash?: string; stat?: FileStat; realPath?: string }
  /**
   * `belowFile`: the path lies below a file (`a/b` where `a` is a file): writing it needs the plan
   * to remove that file (a file replaced by a folder), else it is NOT_A_FILE.
   */
  | { kind: 'missing'; realPath?: string; belowFile?: string }
  | { kind: 'directory' }
  /** The reader refused or failed this path (path policy, a file where a folder should be, I/O). */
  | { kind: 'refused'; code: ErrorCode; message: string };

export interface PlanOptions {
  /** Absolute root the patch's paths are relative to (used only lexically). */
  root: string;
  firstMatch?: boolean;
  /** Opt-in edit-distance pass (`@patchsmith/fuzzy`): the minimum line similarity (0..1) accepted. Off when absent. */
  similarity?: number;
  /**
   * Let an edit replace lines by a placeholder such as `// ... existing code ...` (off: such an
   * edit is ELIDED_CODE, since the lines it deletes are the ones the model did not repeat).
   */
  allowElision?: boolean;
  /**
   * A host setting, never something a patch carries: let a symbolic link the patch makes point
   * outside the root (off: `PATH_OUTSIDE_ROOT`). Writes through such a link are still refused.
   */
  allowOutsideLinks?: boolean;
}

export type FileOp = 'add' | 'update' | 'delete' | 'move';

/** How one chunk was located: which pass decided, and the indentation it corrected. */
export interface ChunkReport {
  chunk: number;
  /** 1-based file line where the chunk's lines start (before the patch). */
  line: number;
  pass: MatchPass;
  indent?: IndentShift;
  /** The added lines were re-indented to the file's style (tabs, or another width) than the patch's. */
  reindented?: boolean;
}

/** One operation of the script, as a person or a model reviews it. */
export interface PlannedFile {
  /** Canonical path relative to the root, `/`-separated. */
  path: string;
  op: FileOp;
  movePath?: string;
  additions: number;
  deletions: number;
  /** Unified diff of this operation against the state before it. */
  diff: string;
  chunks: ChunkReport[];
  /**
   * Set when the edit was made against an older version of the file (the one the model read) and
   * merged into the file as it is now: where each of its changes landed. `diff` is then against
   * the file now.
   */
  merged?: { moved: MovedChange[] };
  /**
   * Set when the host asked for the project's formatter and one applies to the file: which ran
   * (`by`), and when it failed (`ok: false`) why the file is written as the edit made it.
   */
  formatted?: { by: string; ok: boolean; note?: string };
}

/** The final effect on one path, which the transaction carries out. */
export interface PlannedWrite {
  path: string;
  /** The real path written (root-relative, after symlinks), when the reader said it differs from `path`. */
  realPath?: string;
  /**
   * The path's state when planned: its content hash (sha256 hex) and mode, or null when absent.
   * `bytes`: that content (the planner passes on the bytes it was given, not a copy), so that the
   * transaction compares it byte for byte and a snapshot needs not read the file again. The
   * planner computes `hash` on first access (a getter), so an apply that never asks hashes nothing.
   */
  before: { hash: string; mode: number; bytes?: Uint8Array } | null;
  /** What to leave there, or null to remove it. */
  after: { bytes: Uint8Array; mode: number } | null;
}

export interface Plan {
  files: PlannedFile[];
  writes: PlannedWrite[];
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; errors: EditError[] };
