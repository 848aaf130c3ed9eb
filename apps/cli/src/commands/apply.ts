import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { type EditReport, formatHuman, formatJson } from '@patchsmith/formatter';
import { diagnoseWith, runEdit } from '@patchsmith/tool';
import { EXIT_OK, EXIT_REJECTED, type Io, UsageError, readInput } from '../io.js';

const FORMATS = ['auto', 'codex'] as const;

/** Language servers are loaded only when asked for: most applies never pay for them. */
async function startDiagnostics(root: string) {
  const { createDiagnosticsSession } = await import('@patchsmith/lsp');
  const session = createDiagnosticsSession({ root });
  return { diagnose: diagnoseWith(session, root), dispose: () => session.dispose() };
}

export async function applyCommand(args: string[], io: Io, { checkOnly = false } = {}): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cwd: { type: 'string' },
      format: { type: 'string', default: 'auto' },
      check: { type: 'boolean', default: checkOnly },
      json: { type: 'boolean', default: false },
      'first-match': { type: 'boolean', default: false },
      'no-snapshot': { type: 'boolean', default: false },
      diagnostics: { type: 'boolean', default: false },
      diff: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 1) throw new UsageError(`expected at most one patch file, got ${positionals.length}`);
  if (!(FORMATS as readonly string[]).includes(values.format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; got '${values.format}'`);
  }
  const text = await readInput(positionals[0], io);
  const root = resolve(io.cwd, values.cwd ?? '.');
  const diagnostics = values.diagnostics && !values.check ? await startDiagnostics(root) : null;
  let report: EditReport;
  try {
    report = await runEdit(
      { kind: 'patch', text },
      {
        root,
        dryRun: values.check,
        firstMatch: values['first-match'],
        snapshot: !values['no-snapshot'],
        ...(diagnostics ? { diagnose: diagnostics.diagnose } : {}),
      },
    );
  } finally {
    await diagnostics?.dispose();
  }
  if (values.json) io.stdout(formatJson(report));
  else {
    const color = io.isTTY && !io.env.NO_COLOR;
    const text = formatHuman(report, { color, diffs: values.diff });
    (report.ok ? io.stdout : io.stderr)(text);
  }
  return report.ok ? EXIT_OK : EXIT_REJECTED;
}
