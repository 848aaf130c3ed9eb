import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { applyPlan, recoverTransaction } from '@patchsmith/apply';
import { fileSummaryLine } from '@patchsmith/formatter';
import { markUndone, planUndo } from '@patchsmith/snapshot';
import { EXIT_OK, EXIT_REJECTED, type Io, UsageError } from '../io.js';

export async function undoCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { cwd: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  if (positionals.length > 1) throw new UsageError('expected at most one snapshot id');
  const root = resolve(io.cwd, values.cwd ?? '.');
  await recoverTransaction(root);
  const undo = await planUndo({ root, id: positionals[0], force: values.force });
  if (!undo.ok) {
    io.stderr(`${undo.code}: ${undo.message}\n`);
    return EXIT_REJECTED;
  }
  const applied = await applyPlan(undo.plan, { root });
  if (!applied.ok) {
    for (const e of applied.errors) io.stderr(`${e.code}: ${e.message}\n`);
    return EXIT_REJECTED;
  }
  await markUndone({ root, id: undo.snapshot.id });
  io.stdout(`Undone ${undo.snapshot.id}.\n`);
  for (const file of undo.plan.files) io.stdout(`${fileSummaryLine(file)}\n`);
  return EXIT_OK;
}
