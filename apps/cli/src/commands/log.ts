import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { listSnapshots } from '@patchsmith/snapshot';
import { EXIT_OK, type Io, UsageError } from '../io.js';

// A control character (C0, DEL, C1): a hostile manifest's message could move the cursor or retitle the terminal.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const printable = (text: string) => text.replace(CONTROL, '\uFFFD');

export async function logCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { cwd: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length > 0) throw new UsageError('log takes no arguments');
  // A broken store or .git file throws STATE_INVALID, which runCommand prints: never "No snapshots."
  const snapshots = await listSnapshots({ root: resolve(io.cwd, values.cwd ?? '.') });
  if (values.json) {
    io.stdout(`${JSON.stringify(snapshots, null, 2)}\n`);
    return EXIT_OK;
  }
  if (snapshots.length === 0) io.stdout('No snapshots.\n');
  for (const s of snapshots) {
    if (s.invalid !== null) {
      io.stdout(`${printable(s.id)}  INVALID  ${printable(s.invalid)}\n`);
      continue;
    }
    const undone = s.undone === null ? '' : '  (undone)';
    io.stdout(`${s.id}  ${s.time}  ${s.paths.length} path(s)  ${printable(s.message)}${undone}\n`);
  }
  return EXIT_OK;
}
