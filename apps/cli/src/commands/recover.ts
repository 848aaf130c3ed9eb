import { discardTransaction, liveLockHolder, recoverTransaction } from '@patchsmith/apply';
import { EXIT_OK, type Io } from '../io.js';
import { printable, printJson, rootOf, say } from '../output.js';
import { flag, type ParsedCommandLine } from '../parse-command-line.js';

/** What `recover` did, as one line per fact (and `--json` prints as it is). */
function report(parsed: ParsedCommandLine, io: Io, result: object, text: string): number {
  if (flag(parsed, 'json')) printJson(io, { ok: true, ...result });
  else say(io, parsed, text);
  return EXIT_OK;
}

export async function recoverCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  const root = rootOf(io, parsed);
  if (flag(parsed, 'discard')) {
    const { discarded } = await discardTransaction(root);
    const text = discarded
      ? 'Dropped the interrupted apply (its journal and backups); the files were left as they are.\n'
      : 'Nothing to discard.\n';
    return report(parsed, io, { discarded }, text);
  }
  const result = await recoverTransaction(root);
  if (!result.recovered) {
    // An apply that is running now is not an interrupted one: say who holds the lock (BUSY, exit 1).
    const busy = await liveLockHolder(root);
    if (busy !== null) throw busy;
    return report(parsed, io, result, 'Nothing to recover.\n');
  }
  const lines = result.paths.map((p) => `  ${printable(p)}\n`).join('');
  return report(
    parsed,
    io,
    result,
    `Recovered an interrupted apply; restored ${result.paths.length} path(s):\n${lines}`,
  );
}
