import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatUndo, undoLast } from '@patchsmith/tool';
import { EXIT_OK, EXIT_REJECTED, type Io, UsageError } from '../io.js';

export async function undoCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { cwd: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  if (positionals.length > 1) throw new UsageError('expected at most one snapshot id');
  const report = await undoLast({
    root: resolve(io.cwd, values.cwd ?? '.'),
    ...(positionals[0] !== undefined ? { id: positionals[0] } : {}),
    force: values.force,
  });
  (report.ok ? io.stdout : io.stderr)(formatUndo(report));
  return report.ok ? EXIT_OK : EXIT_REJECTED;
}
