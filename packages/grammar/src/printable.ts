/**
 * What an edit script must satisfy for its Codex form to parse back to it. printPatch checks these,
 * so a printed patch never says something other than the script.
 */
import type { Anchor, Chunk, ChunkLine, EditScript, LineHint, Operation } from '@patchsmith/core';

/** The first reason `script` cannot be printed faithfully, or null. */
export function unprintableReason(script: EditScript): { reason: string; path?: string } | null {
  if (script.operations.length === 0)
    return { reason: 'the script has no operation (it would print as an empty patch)' };
  for (const op of script.operations) {
    const reason = operationProblem(op);
    if (reason !== null) return { reason, path: op.path };
  }
  return null;
}

function operationProblem(op: Operation): string | null {
  if (!isPrintablePath(op.path))
    return `path ${JSON.stringify(op.path)} is empty, padded or holds a line break`;
  switch (op.kind) {
    case 'delete':
      return null;
    case 'replace':
    case 'insert':
      return `a ${op.kind} operation (str_replace, SEARCH/REPLACE) has no Codex form`;
    case 'binary':
      return 'a binary patch has no Codex form';
    case 'add': {
      if (op.content !== undefined && op.content !== addedText(op.lines)) {
        return 'the added file has exact content (no final newline, or CR line breaks) that a Codex Add cannot say';
      }
      if (op.mode !== undefined) return 'a Codex Add cannot set a mode';
      const bad = op.lines.findIndex((l) => !isPrintableLineText(l));
      return bad === -1 ? null : `line ${bad + 1} of the added file holds a line break or ends with '\\r'`;
    }
    case 'update': {
      if (op.movePath !== undefined && !isPrintablePath(op.movePath)) {
        return `move path ${JSON.stringify(op.movePath)} is empty, padded or holds a line break`;
      }
      if (op.chunks.length === 0 && op.movePath === undefined) return 'an update needs a chunk or a move';
      if (op.copy || op.mode !== undefined || op.finalNewline !== undefined || op.exactEndings) {
        return 'a copy, a mode, an explicit final newline or exact line endings have no Codex form';
      }
      for (const [i, chunk] of op.chunks.entries()) {
        const reason = chunkProblem(chunk);
        if (reason !== null) return `chunk ${i}: ${reason}`;
      }
      return null;
    }
  }
}

function chunkProblem(chunk: Chunk): string | null {
  if (chunk.lines.length === 0) return 'a chunk needs at least one line';
  if (chunk.hint !== undefined && !isPrintableHint(chunk.hint))
    return 'line hint numbers must be integers of 0 to 15 digits';
  const badAnchor = chunk.anchors.find((a) => !isPrintableAnchor(a));
  if (badAnchor !== undefined) {
    return `anchor ${JSON.stringify(badAnchor.text)} is empty, padded, holds a line break or reads as a line hint`;
  }
  const badLine = chunk.lines.find((l) => !isPrintableChunkLine(l));
  if (badLine !== undefined) {
    return `${badLine.kind} line ${JSON.stringify(badLine.text)} holds a line break, ends with '\\r' or reads as a patch marker`;
  }
  return null;
}

/** What a Codex Add of these lines writes. */
function addedText(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Survives the header's trimming and stays on one line. */
function isPrintablePath(path: string): boolean {
  return path !== '' && path === path.trim() && !/[\r\n]/.test(path);
}

/** One line whose end survives CRLF normalisation. */
function isPrintableLineText(text: string): boolean {
  return !text.includes('\n') && !text.endsWith('\r');
}

/** Text that `@@ -a,b +c,d @@` would take for a line hint. */
const LOOKS_LIKE_HINT = /^[ \t]*-\d{1,15}(?:,\d{1,15})?[ \t]*\+\d{1,15}(?:,\d{1,15})?[ \t]*@@/;

/** Non-empty, unpadded (the parser trims anchors), one line, not read as a hint. */
function isPrintableAnchor(anchor: Anchor): boolean {
  const t = anchor.text;
  return t !== '' && t === t.trim() && !/[\r\n]/.test(t) && !LOOKS_LIKE_HINT.test(t);
}

/** A context line that trims to a patch marker is read as that marker. */
const MARKER = /^[ \t]*\*\*\* (?:End Patch|End of File|Begin Patch)[ \t]*$/;

function isPrintableChunkLine(line: ChunkLine): boolean {
  return isPrintableLineText(line.text) && !(line.kind === 'context' && MARKER.test(line.text));
}

/** The grammar reads counts of at most 15 digits. */
function isPrintableCount(n: number | undefined): boolean {
  return n === undefined || (Number.isInteger(n) && n >= 0 && n < 1e15);
}

function isPrintableHint(hint: LineHint): boolean {
  return [hint.oldStart, hint.oldLines, hint.newStart, hint.newLines].every(isPrintableCount);
}
