import type { EditError } from '@patchsmith/core';
import type { PlannedWrite } from '@patchsmith/planner';
import type { FileIdentity, WriteFolder } from './guard-folders.js';
import type { ResolvedTarget } from './resolve-path.js';

/** A planned write that passed the checks, with where the disk says it goes. */
export interface CheckedWrite {
  write: PlannedWrite;
  resolved: ResolvedTarget;
  /** The real folder the write changes, and its identity when checked (re-checked around the rename). */
  folder: WriteFolder;
  /** The identity of the file the write replaces or removes (what its backup must be), or null when there is none. */
  original: FileIdentity | null;
}

/** What the disk holds for a write: a problem (STALE, read-only), or the bytes there now (null when absent). */
export type DiskCheck = { problem: EditError } | { problem: null; current: Uint8Array | null };
