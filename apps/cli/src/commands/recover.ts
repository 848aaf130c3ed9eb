import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recoverTransaction } from '@patchsmith/apply';
import { EXIT_OK, type Io, UsageError } from '../io.js';

export async function recoverCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { cwd: { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError('recover takes no arguments');
  const result = await recoverTransaction(resolve(io.cwd, values.cwd ?? '.'));
  if (!result.recovered) io.stdout('Nothing to recover.\n');
  else {
    io.stdout(`Recovered an interrupted apply; restored ${result.paths.length} path(s):\n`);
    for (const p of result.paths) io.stdout(`  ${p}\n`);
  }
  return EXIT_OK;
}
