import type { ChunkLine } from '@patchsmith/core';
import { reindent } from './indent-shift.js';
import type { IndentShift, ReplacementLine } from './types.js';

/** A line of the old side: what must be found in the file. */
export function isOld(line: ChunkLine): boolean {
  return line.kind !== 'add';
}

/** A line of the new side: what the matched region becomes. */
function isNew(line: ChunkLine): boolean {
  return line.kind !== 'remove';
}

/**
 * The chunk without its old side's trailing empty line and without a trailing empty line of its new
 * side (SPEC §2 retry), or null when the old side does not end with an empty line. A context line
 * dropped from the old side only stays on the new side as an added line.
 */
export function withoutTrailingEmptyLine(lines: readonly ChunkLine[]): ChunkLine[] | null {
  const lastOld = lines.findLastIndex(isOld);
  if (lastOld < 0 || lines[lastOld]!.text !== '') return null;
  const lastNew = lines.findLastIndex(isNew);
  const dropNew = lastNew >= 0 && lines[lastNew]!.text === '';
  const out: ChunkLine[] = [];
  lines.forEach((line, i) => {
    if (i === lastOld) {
      if (line.kind === 'context' && !(dropNew && i === lastNew)) out.push({ ...line, kind: 'add' });
    } else if (!(dropNew && i === lastNew)) {
      out.push(line);
    }
  });
  return out;
}

/** What the matched file lines `[start, ...)` become: context keeps the file's bytes, adds take the patch's text. */
export function buildReplacement(
  lines: readonly ChunkLine[],
  start: number,
  shift?: IndentShift,
): ReplacementLine[] {
  const out: ReplacementLine[] = [];
  let offset = 0;
  for (const line of lines) {
    if (line.kind === 'context') out.push({ from: 'file', index: start + offset++ });
    else if (line.kind === 'remove') offset++;
    else out.push({ from: 'patch', text: shift ? reindent(line.text, shift) : line.text });
  }
  return out;
}
