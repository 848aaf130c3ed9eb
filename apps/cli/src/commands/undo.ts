import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatUndo, loadConfig, undoLast } from '@patchsmith/tool';
import { EXIT_OK, EXIT_REJECTED, type Io, UsageError } from '../io.js';
import { permissionGate } from './apply.js';

/**
 * `patchsmith undo [ID] [--force] [--yes]`: an undo is an edit like any other, so it passes the
 * root's rules of now through the same gate as `apply` (an `ask` rule prompts on the terminal;
 * `--yes` answers yes; a deny rule denies, `--force` or not).
 */
export async function undoCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cwd: { type: 'string' },
      force: { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 1) throw new UsageError('expected at most one snapshot id');
  const root = resolve(io.cwd, values.cwd ?? '.');
  const config = await loadConfig(root);
  const policy = config.ok ? config.value.policy : undefined;
  const report = await undoLast({
    root,
    ...(positionals[0] !== undefined ? { id: positionals[0] } : {}),
    force: values.force,
    // A broken config is left to undoLast, which refuses with its PARSE_ERROR.
    ...(policy
      ? { policy, ask: permissionGate(policy, io, { fromStdin: false, confirm: false, yes: values.yes }) }
      : {}),
  });
  (report.ok ? io.stdout : io.stderr)(formatUndo(report));
  return report.ok ? EXIT_OK : EXIT_REJECTED;
}
