import { join } from 'node:path';
import { PatchsmithError } from '@patchsmith/core';
import type { RootContext } from './context.js';
import { displayPath, ioError, type ShownNames } from './io-failure.js';
import type { Journal } from './journal.js';

/** Each staged file of a journal, shown as the file it stands in for (absolute paths). */
export function shownNames(ctx: RootContext, journal: Journal): ShownNames {
  const shown = new Map<string, string>();
  for (const { temp, target } of journal.entries) {
    if (temp !== null && target !== null) shown.set(join(ctx.realRoot, temp), join(ctx.realRoot, target));
  }
  return shown;
}

/** At most this many paths are listed in a message; the rest are counted. */
const LISTED = 5;

/** What a rollback that could not finish leaves, and the two ways out of it. */
export function leftBehind(ctx: RootContext, journal: Journal): string {
  const paths = journal.entries.map((entry) => entry.path);
  const listed =
    paths.slice(0, LISTED).join(', ') + (paths.length > LISTED ? ` and ${paths.length - LISTED} more` : '');
  const folder = displayPath(ctx.realRoot, ctx.txnDir);
  return (
    `the journal and the backups are kept in ${folder} and ${listed} may still differ from before the apply; ` +
    '`patchsmith recover` retries the rollback, `patchsmith recover --discard` drops the journal and keeps the tree as it is'
  );
}

/** The rollback failure as a message: the call that failed (never a temporary name), then what is left. */
export function rollbackFailure(ctx: RootContext, journal: Journal, error: unknown): string {
  return ioError(ctx.realRoot, error, leftBehind(ctx, journal), shownNames(ctx, journal)).message;
}

/** `IO_ERROR` for a recovery whose rollback could not finish. */
export function recoveryFailed(ctx: RootContext, journal: Journal, error: unknown): PatchsmithError {
  const message = `an interrupted apply could not be rolled back: ${rollbackFailure(ctx, journal, error)}`;
  return new PatchsmithError('IO_ERROR', message, { path: displayPath(ctx.realRoot, ctx.txnDir) });
}
