import {
  decodeText,
  type EditError,
  encodeString,
  LineModel,
  PatchsmithError,
  readsBack,
  type SplicedText,
  sameBytes,
  type TextContent,
} from '@patchsmith/core';
import { fileHash } from './file-hash.js';
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
  /** Paths that currently hold a file, in order of first touch (a Set keeps insertion order). */
  private readonly files = new Set<string>();
  /**
   * Decoded content by bytes: operations decode a file once, and a describeChange of the same
   * bytes reuses it. Per plan, so bytes a caller changes later are never served stale.
   */
  private readonly texts = new WeakMap<Uint8Array, TextContent | null>();
  /** Texts an operation wrote that read back from their bytes as they are, split into lines when first decoded. */
  private readonly written = new WeakMap<Uint8Array, { bom: boolean; text: string | SplicedText }>();

  constructor(private readonly read: ReadonlyMap<string, FileState>) {}

  get(path: string): Slot {
    const planned = this.current.get(path);
    if (planned !== undefined) return planned;
    const read = this.read.get(path);
    if (read === undefined) {
      throw new PatchsmithError(
        'IO_ERROR',
        `the planner was not given the state of ${path}; read every path touchedPaths() returns`,
        { path },
      );
    }
    this.current.set(path, read);
    this.order.push(path);
    if (read.kind === 'file') this.countFile(path, 1);
    return read;
  }

  /** What the reader found at `path` before the patch, or undefined when the patch does not touch it. */
  readKind(path: string): FileState['kind'] | undefined {
    return this.read.get(path)?.kind;
  }

  /** Whether the patch touches a path below `folder` that held a file before it. */
  readsFileBelow(folder: string): boolean {
    const prefix = `${folder}/`;
    for (const [path, read] of this.read) if (read.kind === 'file' && path.startsWith(prefix)) return true;
    return false;
  }

  /** The slot of `path` without touching it: a path only looked at is not written back. */
  peek(path: string): Slot['kind'] {
    return (this.current.get(path) ?? this.read.get(path))?.kind ?? 'missing';
  }

  set(path: string, slot: Slot): void {
    const wasFile = this.get(path).kind === 'file';
    this.current.set(path, slot);
    const isFile = slot.kind === 'file';
    if (wasFile !== isFile) this.countFile(path, isFile ? 1 : -1);
  }

  private countFile(path: string, delta: 1 | -1): void {
    if (delta === 1) this.files.add(path);
    else this.files.delete(path);
  }

  /** Touched paths that currently hold a file, in order of first touch, for the file-below-a-file check. */
  filePaths(): string[] {
    return this.order.filter((path) => this.files.has(path));
  }

  /** `decodeText`, once per bytes object in this plan. */
  decode(bytes: Uint8Array): TextContent | null {
    let text = this.texts.get(bytes);
    if (text === undefined) {
      const written = this.written.get(bytes);
      text =
        written === undefined
          ? decodeText(bytes)
          : { bom: written.bom, lines: LineModel.of(textOf(written.text)) };
      this.texts.set(bytes, text);
    }
    return text;
  }

  /** The bytes of a text (after a BOM when `bom`); remembers the text as their decoding when it is exactly that. */
  encode(bom: boolean, text: string): Uint8Array {
    const bytes = encodeString(bom, text);
    if (readsBack(bom, text)) this.written.set(bytes, { bom, text });
    return bytes;
  }

  /** `encode` of a spliced text, its ranges copied from the bytes it was decoded from where it can. */
  encodeSpliced(bom: boolean, content: SplicedText, originalBytes: Uint8Array): Uint8Array {
    const bytes = content.bytes(bom, originalBytes);
    if (content.readsBack(bom)) this.written.set(bytes, { bom, text: content });
    return bytes;
  }

  /**
   * Whether any touched path would end with other bytes or another mode than it had (or appear, or
   * go). A path where an operation failed counts as unchanged: nothing is written there.
   */
  changesAnything(): boolean {
    for (const path of this.order) {
      const read = this.read.get(path);
      const final = this.current.get(path);
      if (final?.kind === 'poisoned') continue;
      if (read?.kind === 'file' && final?.kind === 'file') {
        if (read.mode !== final.mode || !sameBytes(read.bytes, final.bytes)) return true;
      } else if (read?.kind === 'file' || final?.kind === 'file') return true;
    }
    return false;
  }

  /** The final effect on each touched path, in order of first touch; paths absent before and after are left out. */
  writes(): PlannedWrite[] {
    const writes: PlannedWrite[] = [];
    for (const path of this.order) {
      const read = this.read.get(path);
      const final = this.current.get(path);
      const before = read?.kind === 'file' ? beforeOf(read) : null;
      const after = final?.kind === 'file' ? { bytes: final.bytes, mode: final.mode } : null;
      if (before === null && after === null) continue;
      const realPath = read?.kind === 'file' || read?.kind === 'missing' ? read.realPath : undefined;
      writes.push(realPath === undefined ? { path, before, after } : { path, realPath, before, after });
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
      if (slot.belowFile !== undefined) return [belowAFile(path, slot.belowFile, line)];
      return [{ code: 'FILE_NOT_FOUND', message: `file not found: ${path}`, path, line }];
    case 'directory':
      return [{ code: 'NOT_A_FILE', message: `not a file (a folder): ${path}`, path, line }];
    case 'refused':
      return [{ code: slot.code, message: slot.message, path, line }];
    case 'poisoned':
      return [];
  }
}

/** `path` lies below the file `file`, which is not a folder. */
export const belowAFile = (path: string, file: string, line: number): EditError => ({
  code: 'NOT_A_FILE',
  message: `cannot write ${path}: ${file} is a file, not a folder`,
  path,
  line,
});

/**
 * Why a file cannot be written at `path`, as `fileRequired`: an absent path or a file to overwrite
 * are fine; so are a path below a file the patch also touches (deletes or moves: a file replaced
 * by a folder) and a folder below which the patch deletes files (a folder replaced by a file).
 * Whether the file or the folder is really gone is decided on the final state (`final-tree.ts`)
 * and, for what the patch does not name, by the transaction against the disk.
 */
export function writeRefused(slot: Slot, path: string, line: number, state: PlanState): EditError[] | null {
  if (slot.kind === 'missing') {
    const { belowFile } = slot;
    return belowFile === undefined || state.readKind(belowFile) === 'file'
      ? null
      : [belowAFile(path, belowFile, line)];
  }
  if (slot.kind === 'directory' && state.readsFileBelow(path)) return null;
  return fileRequired(slot, path, line);
}

/**
 * A plan's `before` for a file read: its hash is computed when first asked for (a snapshot, a
 * host's fingerprint), once; the transaction compares the bytes themselves.
 */
function beforeOf(read: FileSlot): NonNullable<PlannedWrite['before']> {
  let hash: string | undefined;
  return {
    get hash() {
      hash ??= fileHash(read);
      return hash;
    },
    mode: read.mode,
    bytes: read.bytes,
  };
}

/** A remembered text, spliced ones joined on first use. */
const textOf = (text: string | SplicedText): string => (typeof text === 'string' ? text : text.text());
