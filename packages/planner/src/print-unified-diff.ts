import { gitBlobId, isSymlinkMode, quotePath } from '@patchsmith/core';
import { gitBinaryLines } from './print-git-binary.js';
import type { Plan, PlannedFile, PlannedWrite } from './types.js';

const DEV_NULL = '/dev/null';

/** git's mode of a file: a symbolic link, or a regular file executable or not (all git records). */
function gitMode(mode: number): string {
  if (isSymlinkMode(mode)) return '120000';
  return mode & 0o111 ? '100755' : '100644';
}

/** A link changed in place: git's index line with its mode, which says the path is a link on both sides. */
function linkIndex(from: PlannedWrite | undefined, to: PlannedWrite | undefined): string[] {
  const [before, after] = [from?.before, to?.after];
  if (!isSymlinkMode(before?.mode) || !isSymlinkMode(after?.mode) || before?.bytes === undefined) return [];
  const id = (bytes: Uint8Array) => gitBlobId(bytes).slice(0, 7);
  return [`index ${id(before.bytes)}..${id(after!.bytes)} 120000`];
}

/**
 * The whole plan as one git-style unified diff (`diff --git`, new/deleted file modes, renames,
 * mode changes, `a/`/`b/` prefixes, quoted paths), which `git apply` and `parseUnified` read. Each
 * file's hunks are its `PlannedFile.diff` (three lines of context, every ending shown as LF): so
 * patchsmith applies it to CRLF files too, while `git apply` (byte-exact) does so for LF files only.
 */
export function printUnifiedDiff(plan: Plan): string {
  return plan.files.map((file) => printFile(file, plan)).join('');
}

/**
 * A binary change as a `GIT binary patch` when the plan holds both sides' bytes; else git's
 * `Binary files … differ`, which says so but carries nothing to apply.
 */
function binaryBody(file: PlannedFile, plan: Plan, names: string): string[] {
  const from = plan.writes.find((w) => w.path === file.path);
  const to = plan.writes.find((w) => w.path === (file.movePath ?? file.path));
  const before = file.op === 'add' ? null : from?.before?.bytes;
  const after = file.op === 'delete' ? null : to?.after?.bytes;
  if (before === undefined || after === undefined) return [`Binary files ${names} differ`];
  return gitBinaryLines(before, after);
}

function printFile(file: PlannedFile, plan: Plan): string {
  const from = file.path;
  const to = file.movePath ?? file.path;
  const out = [`diff --git ${quotePath(`a/${from}`)} ${quotePath(`b/${to}`)}`];
  const beforeMode = plan.writes.find((w) => w.path === from)?.before?.mode;
  const afterMode = plan.writes.find((w) => w.path === to)?.after?.mode;
  if (file.op === 'add') out.push(`new file mode ${gitMode(afterMode ?? 0o644)}`);
  else if (file.op === 'delete') out.push(`deleted file mode ${gitMode(beforeMode ?? 0o644)}`);
  else if (beforeMode !== undefined && afterMode !== undefined && gitMode(beforeMode) !== gitMode(afterMode))
    out.push(`old mode ${gitMode(beforeMode)}`, `new mode ${gitMode(afterMode)}`);
  if (file.op === 'move') out.push(`rename from ${quotePath(from)}`, `rename to ${quotePath(to)}`);
  if (file.op === 'update') {
    const writes = [from, to].map((path) => plan.writes.find((w) => w.path === path));
    out.push(...linkIndex(writes[0], writes[1]));
  }
  const [, , ...body] = file.diff.replace(/\n$/, '').split('\n');
  const oldName = file.op === 'add' ? DEV_NULL : quotePath(`a/${from}`);
  const newName = file.op === 'delete' ? DEV_NULL : quotePath(`b/${to}`);
  if (body[0]?.startsWith('Binary files ')) out.push(...binaryBody(file, plan, `${oldName} and ${newName}`));
  else if (body.length > 0) {
    out.push(`--- ${oldName}`, `+++ ${newName}`);
    for (const line of body) out.push(line);
  }
  return out.map((line) => `${line}\n`).join('');
}
