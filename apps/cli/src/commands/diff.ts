import { printUnifiedDiff } from '@patchsmith/planner';
import { planEdit } from '@patchsmith/tool';
import { readEditInput, rejectedInput } from '../edit-input.js';
import { gitApplyMapping, saySkipped } from '../git-apply-paths.js';
import { EXIT_OK, type Io } from '../io.js';
import { printJson, rootOf, say } from '../output.js';
import { flag, option, type ParsedCommandLine } from '../parse-command-line.js';
import { reject } from './apply.js';

/**
 * `patchsmith diff`: plans any supported input and prints the whole change as one git-style unified
 * diff, writing nothing, so any edit can be reviewed (or applied) with standard tools.
 */
export async function diffCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  const json = flag(parsed, 'json');
  const input = await readEditInput(parsed.positionals, option(parsed, 'format') ?? 'auto', io);
  const root = rootOf(io, parsed);
  const paths = 'error' in input ? null : await gitApplyMapping(root, input, parsed);
  const planned =
    'error' in input
      ? { ok: false as const, errors: rejectedInput(input, true).errors }
      : await planEdit(input, {
          root,
          mapScript: paths!.mapScript,
          firstMatch: flag(parsed, 'first-match'),
          allowElision: flag(parsed, 'allow-elision'),
          formatCode: flag(parsed, 'format-code'),
        });
  if (!planned.ok) return reject(planned.errors, json, io, root, true);
  const diff = printUnifiedDiff(planned.plan);
  const skipped = paths?.skipped ?? [];
  if (json)
    printJson(io, {
      ok: true,
      diff,
      files: planned.plan.files.map((f) => ({
        path: f.path,
        op: f.op,
        ...(f.movePath !== undefined && { movePath: f.movePath }),
      })),
      ...(skipped.length > 0 && { skipped }),
    });
  else {
    say(io, parsed, diff);
    if (paths !== null) saySkipped(io, parsed, paths);
  }
  return EXIT_OK;
}
