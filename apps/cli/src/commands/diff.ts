import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatHuman } from '@patchsmith/formatter';
import { printUnifiedDiff } from '@patchsmith/planner';
import { planEdit } from '@patchsmith/tool';
import { readEditInput, rejectedInput } from '../edit-input.js';
import { EXIT_OK, EXIT_REJECTED, type Io } from '../io.js';

/**
 * `patchsmith diff`: plans any supported input and prints the whole change as one git-style unified
 * diff, writing nothing, so any edit can be reviewed (or applied) with standard tools.
 */
export async function diffCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cwd: { type: 'string' },
      format: { type: 'string', default: 'auto' },
      'first-match': { type: 'boolean', default: false },
      'allow-elision': { type: 'boolean', default: false },
    },
  });
  const input = await readEditInput(positionals, values.format, io);
  const planned =
    'error' in input
      ? { ok: false as const, errors: rejectedInput(input, true).errors }
      : await planEdit(input, {
          root: resolve(io.cwd, values.cwd ?? '.'),
          firstMatch: values['first-match'],
          allowElision: values['allow-elision'],
        });
  if (!planned.ok) {
    const report = {
      ok: false,
      dryRun: true,
      files: [],
      diagnostics: [],
      snapshot: null,
      errors: planned.errors,
    };
    io.stderr(formatHuman(report));
    return EXIT_REJECTED;
  }
  io.stdout(printUnifiedDiff(planned.plan));
  return EXIT_OK;
}
