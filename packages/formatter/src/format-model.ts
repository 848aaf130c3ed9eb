import { errorDetails, errorHeading, listedErrors } from './describe-error.js';
import { tolerantMatchNotes } from './describe-match.js';
import { fileSummaryLine, partialHeading } from './format-human.js';
import type { EditReport } from './report.js';

/**
 * The text a model reads back: a short summary, every failing chunk with its nearest region (so
 * the model can correct its copy of the file), and a `<diagnostics>` block per file.
 */
export function formatForModel(report: EditReport): string {
  const out: string[] = [];
  if (report.ok)
    out.push(report.dryRun ? 'The patch applies cleanly (nothing was written).' : 'Patch applied.');
  else if (report.partial) out.push(partialHeading(report));
  else out.push(`The patch was rejected and nothing was written. ${report.errors.length} problem(s):`);
  if (report.ok || report.partial) {
    for (const file of report.files) {
      out.push(fileSummaryLine(file));
      // Tells the model its copy of the file drifted, so it can re-read before the next edit.
      for (const note of tolerantMatchNotes(file)) out.push(`  note: ${note}`);
    }
  }
  const { listed, rest } = listedErrors(report.errors);
  for (const error of listed) {
    out.push('');
    out.push(errorHeading(error));
    for (const line of errorDetails(error)) out.push(line);
  }
  if (rest !== null) out.push('', rest);
  for (const d of report.diagnostics) {
    if (d.status !== 'ok') {
      out.push('', `<diagnostics file="${d.path}" status="${d.status}">${d.note ?? ''}</diagnostics>`);
      continue;
    }
    if (d.diagnostics.length === 0) continue;
    out.push('', `<diagnostics file="${d.path}">`);
    for (const x of d.diagnostics) {
      out.push(`ERROR [${x.range.start.line + 1}:${x.range.start.character + 1}] ${x.message}`);
    }
    if (d.omitted > 0) out.push(`... and ${d.omitted} more`);
    out.push('</diagnostics>');
  }
  return `${out.join('\n')}\n`;
}
