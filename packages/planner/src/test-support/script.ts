import type {
  AddFile,
  Chunk,
  ChunkLine,
  DeleteFile,
  EditScript,
  Operation,
  UpdateFile,
} from '@patchsmith/core';
import type { FileState } from '../types.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A chunk from its body written as a Codex patch would: one line a row, each starting with
 * ` `, `-` or `+`. `@@ text` rows before the body become anchors.
 */
export function chunk(body: string, extra: Partial<Pick<Chunk, 'endOfFile' | 'line' | 'hint'>> = {}): Chunk {
  const anchors: Chunk['anchors'] = [];
  const lines: ChunkLine[] = [];
  body.split('\n').forEach((row, i) => {
    if (row.startsWith('@@ ')) {
      anchors.push({ text: row.slice(3), line: i + 1 });
      return;
    }
    const kind = row[0] === '-' ? 'remove' : row[0] === '+' ? 'add' : 'context';
    lines.push({ kind, text: row.slice(1), line: i + 1 });
  });
  return {
    anchors,
    lines,
    endOfFile: extra.endOfFile ?? false,
    line: extra.line ?? 1,
    ...(extra.hint && { hint: extra.hint }),
  };
}

export function update(path: string, chunks: Chunk[], movePath?: string, line = 1): UpdateFile {
  return { kind: 'update', path, chunks, line, ...(movePath !== undefined && { movePath }) };
}

export function add(path: string, lines: string[], line = 1): AddFile {
  return { kind: 'add', path, lines, line };
}

export function del(path: string, line = 1): DeleteFile {
  return { kind: 'delete', path, line };
}

export function script(...operations: Operation[]): EditScript {
  return { format: 'codex', operations };
}

export function file(content: string | Uint8Array, mode = 0o644): FileState {
  return { kind: 'file', bytes: typeof content === 'string' ? encoder.encode(content) : content, mode };
}

export const missing: FileState = { kind: 'missing' };
export const directory: FileState = { kind: 'directory' };

export function files(entries: Record<string, FileState>): ReadonlyMap<string, FileState> {
  return new Map(Object.entries(entries));
}

export function text(bytes: Uint8Array | undefined | null): string | undefined | null {
  return bytes ? decoder.decode(bytes) : bytes;
}

export const ROOT = '/project';
