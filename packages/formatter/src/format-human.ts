import type { PlannedFile } from '@patchsmith/planner';
import { type Colors, createColors } from './colors.js';
import { errorDetails, errorHeading, listedErrors } from './describe-error.js';
import { tolerantMatchNotes } from './describe-match.js';
import type { EditReport, FileDiagnosticsReport } from './report.js';
import { terminalSafe, terminalSafeReport } from './terminal-safe.js';

export interface HumanFormatOptions {
  /** Colours on or off; the CLI turns them on only for a TTY without NO_COLOR. */
  color?: boolean;
  /** Print each file's unified diff under its summary line. */
  diffs?: boolean;
}

/** `[A] path (+n)` and friends: SPEC §5's one line per file. */
export function fileSummaryLine(file: PlannedFile, c: Colors = createColors(false)): string {
  switch (file.op) {
    case 'add':
      return `${c.green('[A]')} ${file.path} (+${file.additions})`;
    case 'delete':
      return `${c.red('[D]')} ${file.path}`;
    case 'move':
      return `${c.cyan('[R]')} ${file.path} → ${file.movePath} (+${file.additions} -${file.deletions})`;
    default:
      return `${c.yellow('[M]')} ${file.path} (+${file.additions} -${file.deletions})`;
  }
}

/** A unified diff with added lines green, removed red and hunk headers cyan. */
export function colorDiff(diff: string, c: Colors): string {
  return terminalSafe(diff)
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return c.bold(line);
      if (line.startsWith('@@')) return c.cyan(line);
      if (line.startsWith('+')) return c.green(line);
      if (line.startsWith('-')) return c.red(line);
      return line;
    })
    .join('\n');
}

function diagnosticsBlock(reports: FileDiagnosticsReport[], c: Colors): string[] {
  const out: string[] = [];
  const checked = reports.filter((r) => r.status === 'ok');
  // Said when clean, so a silent run is never taken for a skipped one.
  if (
    reports.length > 0 &&
    checked.length === reports.length &&
    reports.every((r) => r.diagnostics.length === 0)
  ) {
    out.push(c.green(`✓ no new problems in ${reports.length} file(s)`));
  }
  for (const r of reports) {
    if (r.status !== 'ok') {
      out.push(`${c.yellow('!')} ${r.path}: diagnostics ${r.status}${r.note ? ` (${r.note})` : ''}`);
      continue;
    }
    if (r.diagnostics.length === 0) continue;
    const where = r.dependent ? ' (not edited: it uses an edited file)' : '';
    out.push(`${c.red('✖')} ${r.path}: ${r.diagnostics.length + r.omitted} new error(s)${where}`);
    for (const d of r.diagnostics) {
      out.push(`  ${r.path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);
    }
    if (r.omitted > 0) out.push(`  … and ${r.omitted} more`);
  }
  return out;
}

/** The heading of a partial apply: what was written, and that the rest was not. */
export function partialHeading(report: EditReport): string {
  const written = report.dryRun ? 'would be written' : 'written';
  return `Patch partly ${report.dryRun ? 'applies' : 'applied'}: ${report.files.length} file(s) ${written}; ${report.errors.length} error(s), and the files they name were left untouched.`;
}

/** The terminal output of SPEC §5. */
export function formatHuman(unsafe: EditReport, options: HumanFormatOptions = {}): string {
  const report = terminalSafeReport(unsafe);
  const c = createColors(options.color ?? false);
  const out: string[] = [];
  const wrote = report.ok || report.partial === true;
  if (report.ok)
    out.push(c.bold(report.dryRun ? 'Patch applies cleanly (nothing written).' : 'Patch applied.'));
  else if (report.partial) out.push(c.bold(c.yellow(partialHeading(report))));
  else out.push(c.bold(c.red(`Patch rejected: ${report.errors.length} error(s); nothing was written.`)));
  if (wrote) {
    for (const file of report.files) {
      out.push(fileSummaryLine(file, c));
      for (const note of tolerantMatchNotes(file)) out.push(c.dim(`    ${terminalSafe(note)}`));
      if (options.diffs && file.diff) out.push(colorDiff(file.diff.replace(/\n$/, ''), c));
    }
    if (report.snapshot)
      out.push(c.dim(`snapshot ${report.snapshot} (undo: patchsmith undo ${report.snapshot})`));
    for (const line of diagnosticsBlock(report.diagnostics, c)) out.push(line);
  }
  const { listed, rest } = listedErrors(report.errors);
  for (const error of listed) {
    out.push('');
    out.push(c.red(errorHeading(error)));
    for (const l of errorDetails(error)) out.push(`  ${l}`);
  }
  if (rest !== null) out.push('', c.red(rest));
  return `${out.join('\n')}\n`;
}
