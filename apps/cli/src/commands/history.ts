import { withRootLock } from '@patchsmith/apply';
import { forgetSnapshot, gcSnapshots } from '@patchsmith/snapshot';
import { EXIT_OK, type Io, UsageError } from '../io.js';
import { printable, printJson, rootOf, say } from '../output.js';
import { flag, option, type ParsedCommandLine } from '../parse-command-line.js';

/** `patchsmith forget ID`: drops one snapshot from the history, under the root's lock. */
export async function forgetCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  const id = parsed.positionals[0];
  if (id === undefined) throw new UsageError('forget needs the id of a snapshot (see patchsmith log)');
  const root = rootOf(io, parsed);
  await withRootLock(root, () => forgetSnapshot({ root, id }));
  if (flag(parsed, 'json')) printJson(io, { ok: true, forgotten: id });
  else say(io, parsed, `Forgot snapshot ${printable(id)}.\n`);
  return EXIT_OK;
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** An age as `--older-than` takes it (`90m`, `12h`, `30d`, `2w`), in milliseconds. */
export function parseAge(text: string): number {
  const match = /^(\d+)([mhdw])$/.exec(text);
  if (match === null)
    throw new UsageError(`--older-than ${text}: expected a number and a unit (m, h, d, w), as in 30d`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** A count as `--keep` takes it. */
function parseCount(text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`--keep ${text}: expected a whole number`);
  return Number(text);
}

/** `patchsmith gc --keep N --older-than AGE`: prunes the history's refs; git's own gc reclaims the objects. */
export async function gcCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  const keep = option(parsed, 'keep');
  const olderThan = option(parsed, 'older-than');
  if (keep === undefined && olderThan === undefined) {
    throw new UsageError(
      'gc needs --keep N, --older-than AGE, or both (it never drops every snapshot unasked)',
    );
  }
  const root = rootOf(io, parsed);
  const bounds = {
    ...(keep !== undefined ? { keep: parseCount(keep) } : {}),
    ...(olderThan !== undefined ? { olderThanMs: parseAge(olderThan) } : {}),
  };
  const result = await withRootLock(root, () => gcSnapshots({ root, ...bounds }));
  if (flag(parsed, 'json')) printJson(io, { ok: true, ...result });
  else
    say(
      io,
      parsed,
      `Removed ${result.removed.length} snapshot(s), kept ${result.kept}.${result.removed.map((id) => `\n  ${id}`).join('')}\n`,
    );
  return EXIT_OK;
}
