import { type EditError, PatchsmithError } from '@patchsmith/grammar';
import { hashBytes } from './hash.js';
import type { FileState, PlannedWrite } from './types.js';

/** A path's state while the plan is built: what was read, or what earlier operations left there. */
export type Slot =
  | FileState
  /** An earlier operation on this path failed, so what it holds now is unknown. */
  | { kind: 'poisoned' };

export type FileSlot = Extract<FileState, { kind: 'file' }>;

/**
 * The planned state of every touched path, composed operation by operation in patch order.
 * Reading a path the caller did not supply is a programming error in the caller, hence a throw.
 */
export class PlanState {
  private readonly current = new Map<string, Slot>();
  private readonly order: string[] = [];

  constructor(private readonly files: ReadonlyMap<string, FileState>) {}

  get(path: string): Slot {
    const planned = this.current.get(path);
    if (planned !== undefined) return planned;
    const read = this.files.get(path);
    if (read === undefined) {
      throw new PatchsmithError(
        'IO_ERROR',
        `the planner was not given the state of ${path}; read every path touchedPaths() returns`,
        { path },
      );
    }
    this.current.set(path, read);
    this.order.push(path);
    return read;
  }

  set(path: string, slot: Slot): void {
    this.get(path);
    this.current.set(path, slot);
  }

  /** Touched paths that currently hold a file, for the file-below-a-file check. */
  filePaths(): string[] {
    return this.order.filter((path) => this.current.get(path)?.kind === 'file');
  }

  /** The final effect on each touched path, in order of first touch; paths absent before and after are left out. */
  writes(): PlannedWrite[] {
    const writes: PlannedWrite[] = [];
    for (const path of this.order) {
      const read = this.files.get(path);
      const final = this.current.get(path);
      const before = read?.kind === 'file' ? { hash: hashBytes(read.bytes), mode: read.mode } : null;
      const after = final?.kind === 'file' ? { bytes: final.bytes, mode: final.mode } : null;
      if (before === null && after === null) continue;
      writes.push({ path, before, after });
    }
    return writes;
  }
}

/**
 * Why `slot` cannot serve an operation that needs an existing file at `path`: null when it can;
 * an empty list when an earlier failure on the path was already reported.
 */
export function fileRequired(slot: Slot, path: string, line: number): EditError[] | null {
  switch (slot.kind) {
    case 'file':
      return null;
    case 'missing':
      return [{ code: 'FILE_NOT_FOUND', message: `file not found: ${path}`, path, line }];
    case 'directory':
      return [{ code: 'NOT_A_FILE', message: `not a file (a folder): ${path}`, path, line }];
    case 'refused':
      return [{ code: slot.code, message: slot.message, path, line }];
    case 'poisoned':
      return [];
  }
}

/** Why a file cannot be written at `path` (an absent path or a file to overwrite are fine), as `fileRequired`. */
export function writeRefused(slot: Slot, path: string, line: number): EditError[] | null {
  return slot.kind === 'missing' ? null : fileRequired(slot, path, line);
}
