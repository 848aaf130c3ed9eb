import type { EditReport } from './report.js';
import { reviewedFile } from './reviewed-file.js';

/** The `--json` document of SPEC §5: stable keys, one object, newline-terminated. */
export function formatJson(report: EditReport): string {
  const doc = {
    ok: report.ok,
    ...(report.partial ? { partial: true } : {}),
    dryRun: report.dryRun,
    files: report.files.map((f) => ({
      ...reviewedFile(f),
      chunks: f.chunks,
      ...(f.merged !== undefined ? { merged: f.merged } : {}),
      ...(f.formatted !== undefined ? { formatted: f.formatted } : {}),
    })),
    diagnostics: report.diagnostics,
    snapshot: report.snapshot,
    errors: report.errors,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
