import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { discardTransaction, recoverTransaction } from '@patchsmith/apply';
import { EXIT_OK, type Io, UsageError } from '../io.js';

// A character that would act on the terminal (the journal's paths are shown, and a journal is input).
const isControl = (char: string) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f;

/** A path as a line of output: control characters shown as JSON escapes. */
const printable = (path: string) =>
  [...path].map((char) => (isControl(char) ? JSON.stringify(char).slice(1, -1) : char)).join('');

export async function recoverCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { cwd: { type: 'string' }, discard: { type: 'boolean', default: false } },
  });
  if (positionals.length > 0) throw new UsageError('recover takes no arguments');
  const root = resolve(io.cwd, values.cwd ?? '.');
  if (values.discard) {
    const { discarded } = await discardTransaction(root);
    io.stdout(
      discarded
        ? 'Dropped the interrupted apply (its journal and backups); the files were left as they are.\n'
        : 'Nothing to discard.\n',
    );
    return EXIT_OK;
  }
  const result = await recoverTransaction(root);
  if (!result.recovered) io.stdout('Nothing to recover.\n');
  else {
    io.stdout(`Recovered an interrupted apply; restored ${result.paths.length} path(s):\n`);
    for (const p of result.paths) io.stdout(`  ${printable(p)}\n`);
  }
  return EXIT_OK;
}
