import { errorDetails, errorHeading, listedErrors } from './describe-error.js';
import type { EditReport } from './report.js';

/** Letter the reference `apply_patch` prints for an operation; a move reports its destination as modified. */
function summaryEntry(file: EditReport['files'][number]): string {
  if (file.op === 'add') return `A ${file.path}`;
  if (file.op === 'delete') return `D ${file.path}`;
  if (file.op === 'move') return `M ${file.movePath}`;
  return `M ${file.path}`;
}

/** The reference `apply_patch`'s output: the summary on stdout, the error on stderr. */
export function formatApplyPatch(report: EditReport): { stdout: string; stderr: string } {
  if (report.ok) {
    const lines = ['Success. Updated the following files:', ...report.files.map(summaryEntry)];
    return { stdout: `${lines.join('\n')}\n`, stderr: '' };
  }
  const lines: string[] = [];
  const { listed, rest } = listedErrors(report.errors);
  for (const error of listed) {
    lines.push(errorHeading(error));
    for (const l of errorDetails(error)) lines.push(`  ${l}`);
  }
  if (rest !== null) lines.push(rest);
  return { stdout: '', stderr: `${lines.join('\n')}\n` };
}
