import { type HistoryEntry, listSnapshots } from '@patchsmith/snapshot';
import { EXIT_OK, type Io } from '../io.js';
import { printable, printJson, rootOf, say } from '../output.js';
import { flag, type ParsedCommandLine } from '../parse-command-line.js';

const OP_LETTER = { add: 'A', update: 'M', delete: 'D', none: '-' } as const;

/** Why a snapshot has the state it has, when it is not plain. */
function stateNote(entry: HistoryEntry): string {
  if (entry.state === 'stale') return ` (changed since: ${entry.changed.map(printable).join(', ')})`;
  if (entry.state === 'outside') return ' (touched paths outside this folder: undo it from the top)';
  if (entry.state === 'undone') return ` (${entry.undone?.time ?? ''})`;
  return '';
}

/** One snapshot as `log` shows it: id, state, time, message, then its files. */
function entryLines(entry: HistoryEntry, next: boolean): string {
  const mark = next ? '* ' : '  ';
  if (entry.state === 'invalid')
    return `${mark}${printable(entry.id)}  invalid  ${printable(entry.invalid ?? '')}\n`;
  const head = `${mark}${entry.id}  ${entry.state.padEnd(7)}  ${entry.time}  ${printable(entry.message)}${stateNote(entry)}\n`;
  return head + entry.files.map((f) => `      ${OP_LETTER[f.op]} ${printable(f.path)}\n`).join('');
}

/** The snapshot a plain `undo` would take: the newest one not undone whose files are as its apply left them. */
const nextUndo = (entries: readonly HistoryEntry[]) => entries.find((e) => e.state === 'applied')?.id ?? null;

/**
 * Prints the history (with `pending`, only what undo can still take: the snapshots not undone),
 * marking with `*` the snapshot a plain `undo` would restore. A broken store or `.git` file throws
 * STATE_INVALID, which runCommand prints: never "No snapshots."
 */
export async function printHistory(
  parsed: ParsedCommandLine,
  io: Io,
  { pending = false } = {},
): Promise<number> {
  const all = await listSnapshots({ root: rootOf(io, parsed) });
  const entries = pending ? all.filter((e) => e.state !== 'undone') : all;
  const next = nextUndo(entries);
  if (flag(parsed, 'json')) {
    printJson(io, pending ? { next, snapshots: entries } : entries);
    return EXIT_OK;
  }
  if (entries.length === 0) say(io, parsed, pending ? 'Nothing to undo.\n' : 'No snapshots.\n');
  say(io, parsed, entries.map((e) => entryLines(e, e.id === next)).join(''));
  return EXIT_OK;
}

export async function logCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  return printHistory(parsed, io);
}
