/**
 * Prints an edit script as a git-style unified diff that `parseUnified` reads back to the same
 * script: `diff --git` per operation; git's extended headers for new and deleted files, modes,
 * renames and copies; hunks headed by their hint (counts taken from the lines) or a bare `@@`;
 * `\ No newline at end of file` where the final-newline state is explicit; quoted paths as git
 * quotes them.
 */
import {
  type AddFile,
  type Chunk,
  type EditScript,
  type Operation,
  PatchsmithError,
  quotePath,
  type UpdateFile,
} from '@patchsmith/core';

const PREFIX = { context: ' ', remove: '-', add: '+' } as const;
const NO_NEWLINE = '\\ No newline at end of file';

/** Throws `PatchsmithError('INVALID_EDIT')` for what a unified diff cannot say (see the README). */
export function printUnified(script: EditScript): string {
  const out: string[] = [];
  for (const op of script.operations) {
    const problem = unprintable(op);
    if (problem !== null) {
      throw new PatchsmithError('INVALID_EDIT', `cannot print ${op.path} as a unified diff: ${problem}`, {
        path: op.path,
      });
    }
    printOperation(op as Exclude<Operation, { kind: 'replace' | 'insert' | 'binary' }>, out);
  }
  return out.map((line) => `${line}\n`).join('');
}

/** Empty, padded, multi-line or `/dev/null`: the header would not read back as the same path. */
function isPrintablePath(path: string): boolean {
  return path !== '' && path === path.trim() && !/[\r\n]/.test(path) && path !== '/dev/null';
}

function unprintable(op: Operation): string | null {
  if (!isPrintablePath(op.path))
    return `path ${JSON.stringify(op.path)} is empty, padded or holds a line break`;
  switch (op.kind) {
    case 'replace':
    case 'insert':
      return `a ${op.kind} operation has no unified form`;
    case 'binary':
      return 'a binary patch is not printed (git diff --binary writes one)';
    case 'delete':
      return op.chunks?.some((c) => c.lines.some((l) => l.kind !== 'remove'))
        ? "a deleted file's chunks may only remove lines"
        : null;
    case 'add':
      return addedText(op)
        .split('\n')
        .some((l) => l.endsWith('\r'))
        ? 'a line ends with \\r'
        : null;
    case 'update':
      return updateProblem(op);
  }
}

function updateProblem(op: UpdateFile): string | null {
  if (op.movePath !== undefined && !isPrintablePath(op.movePath)) return 'the move path cannot be printed';
  if (op.copy && op.movePath === undefined) return 'a copy needs a destination';
  if (op.chunks.length === 0 && op.movePath === undefined && op.mode === undefined)
    return 'an update without chunks, move or mode says nothing';
  for (const [i, chunk] of op.chunks.entries()) {
    if (chunk.anchors.length > 0) return `chunk ${i}: a unified diff has no @@ anchors`;
    if (chunk.lines.length === 0) return `chunk ${i}: a chunk needs at least one line`;
    if (chunk.lines.some((l) => l.text.includes('\n') || (!op.exactEndings && l.text.endsWith('\r'))))
      return `chunk ${i}: a line holds a line break`;
    const last = i === op.chunks.length - 1;
    if (chunk.endOfFile && (!last || op.finalNewline === undefined))
      return `chunk ${i}: end of file is said only by the last chunk's \\ No newline marker`;
  }
  if (op.finalNewline !== undefined) {
    const last = op.chunks.at(-1);
    if (last === undefined || !last.endOfFile) return 'an explicit final newline needs an end-of-file chunk';
    const lastOld = last.lines.findLast((l) => l.kind !== 'add');
    if (op.finalNewline && lastOld?.kind !== 'remove')
      return 'a final newline gained is said by a removed last line';
    if (!op.finalNewline && !last.lines.some((l) => l.kind !== 'remove'))
      return 'a final newline lost is said after a line of the new side';
  }
  return null;
}

function addedText(op: AddFile): string {
  return op.content ?? (op.lines.length === 0 ? '' : `${op.lines.join('\n')}\n`);
}

/** git's six-digit mode of a regular file. */
function gitMode(mode: number): string {
  return (0o100000 | mode).toString(8);
}

function side(prefix: 'a/' | 'b/', path: string): string {
  return quotePath(prefix + path);
}

function printOperation(
  op: Exclude<Operation, { kind: 'replace' | 'insert' | 'binary' }>,
  out: string[],
): void {
  const to = op.kind === 'update' ? (op.movePath ?? op.path) : op.path;
  out.push(`diff --git ${side('a/', op.path)} ${side('b/', to)}`);
  switch (op.kind) {
    case 'delete':
      out.push('deleted file mode 100644');
      if (op.chunks === undefined || op.chunks.length === 0) return;
      out.push(`--- ${side('a/', op.path)}`, '+++ /dev/null');
      op.chunks.forEach((chunk, i) => {
        const last = i === op.chunks!.length - 1;
        printChunk(chunk, last && op.oldNoNewline !== undefined ? true : undefined, out);
      });
      return;
    case 'add': {
      out.push(`new file mode ${gitMode(op.mode ?? 0o644)}`);
      const text = addedText(op);
      if (text === '') return;
      const lines = text.replace(/\n$/, '').split('\n');
      out.push('--- /dev/null', `+++ ${side('b/', op.path)}`, `@@ -0,0 +1,${lines.length} @@`);
      for (const line of lines) out.push(`+${line}`);
      if (!text.endsWith('\n')) out.push(NO_NEWLINE);
      return;
    }
    case 'update':
      if (op.mode !== undefined) out.push(`new mode ${gitMode(op.mode)}`);
      if (op.movePath !== undefined) {
        const verb = op.copy ? 'copy' : 'rename';
        out.push(`${verb} from ${quotePath(op.path)}`, `${verb} to ${quotePath(op.movePath)}`);
      }
      if (op.chunks.length === 0) return;
      out.push(`--- ${side('a/', op.path)}`, `+++ ${side('b/', to)}`);
      op.chunks.forEach((chunk, i) => {
        printChunk(chunk, i === op.chunks.length - 1 ? op.finalNewline : undefined, out);
      });
  }
}

function printChunk(chunk: Chunk, finalNewline: boolean | undefined, out: string[]): void {
  const oldCount = chunk.lines.filter((l) => l.kind !== 'add').length;
  const newCount = chunk.lines.filter((l) => l.kind !== 'remove').length;
  out.push(
    chunk.hint === undefined
      ? '@@'
      : `@@ -${chunk.hint.oldStart},${oldCount} +${chunk.hint.newStart},${newCount} @@`,
  );
  // The marker follows the last line of the side whose end it describes.
  const markAfter =
    finalNewline === false
      ? chunk.lines.findLastIndex((l) => l.kind !== 'remove')
      : finalNewline === true
        ? chunk.lines.findLastIndex((l) => l.kind !== 'add')
        : -1;
  chunk.lines.forEach((line, i) => {
    out.push(PREFIX[line.kind] + line.text);
    if (i === markAfter) out.push(NO_NEWLINE);
  });
}
