import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { listSnapshots } from '@patchsmith/snapshot';
import { EXIT_OK, type Io, UsageError } from '../io.js';

export async function logCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { cwd: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length > 0) throw new UsageError('log takes no arguments');
  const snapshots = await listSnapshots({ root: resolve(io.cwd, values.cwd ?? '.') });
  if (values.json) {
    io.stdout(`${JSON.stringify(snapshots, null, 2)}\n`);
    return EXIT_OK;
  }
  if (snapshots.length === 0) io.stdout('No snapshots.\n');
  for (const s of snapshots) {
    io.stdout(`${s.id}  ${new Date(s.time).toISOString()}  ${s.paths.length} path(s)  ${s.message}\n`);
  }
  return EXIT_OK;
}
