import type { EditError } from '@patchsmith/core';
import type { PlannedFile } from '@patchsmith/planner';

/** One diagnostic as reported to people and models (LSP positions are 0-based). */
export interface ReportedDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
}

/** Diagnostics of one written file; a status other than `ok` must never read as a clean file. */
export interface FileDiagnosticsReport {
  path: string;
  status: 'ok' | 'timeout' | 'no-server' | 'server-missing' | 'crashed';
  diagnostics: ReportedDiagnostic[];
  /** How many more new errors there were beyond those listed. */
  omitted: number;
  note?: string;
  /** Not edited: the file imports an edited one, and the edit introduced these errors there. */
  dependent?: true;
}

/** The outcome of one edit, whatever entry point produced it: what every output is made from. */
export interface EditReport {
  /** Everything asked for was done (or, checked, would be). */
  ok: boolean;
  /**
   * A partial apply (opt-in) that wrote some files and refused others: `ok` is false, `files` are
   * the files written (or, checked, that would be), `errors` why the others were left untouched.
   */
  partial?: boolean;
  /** True when the patch was only checked (`--check`): nothing was written. */
  dryRun: boolean;
  files: PlannedFile[];
  diagnostics: FileDiagnosticsReport[];
  /** Id of the snapshot taken before writing, or null when none was taken. */
  snapshot: string | null;
  errors: EditError[];
}
