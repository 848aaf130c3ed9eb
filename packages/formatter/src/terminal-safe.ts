import type { EditError } from '@patchsmith/core';
import type { EditReport } from './report.js';

// A control character a terminal would act on (cursor moves, colours, title changes): C0 except
// tab and newline, DEL, and C1. A carriage return right before a line's end is kept (CRLF files).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const EACH_CONTROL = new RegExp(CONTROL.source, 'g');

/** The escape a person reads for one control character: `\r`, `\x1b`. */
const shown = (ch: string) => (ch === '\r' ? '\\r' : `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * Text from a patch or a hostile tree (file names, messages quoting it, diff lines) with every
 * control character written out, so printing it cannot drive the terminal it is shown on.
 */
export function terminalSafe(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(EACH_CONTROL, (ch, offset: number) =>
    ch === '\r' && (text[offset + 1] === '\n' || offset + 1 === text.length) ? ch : shown(ch),
  );
}

function safeError(error: EditError): EditError {
  const safe: EditError = { ...error, message: terminalSafe(error.message) };
  if (error.path !== undefined) safe.path = terminalSafe(error.path);
  if (error.expected !== undefined) safe.expected = terminalSafe(error.expected);
  if (error.nearest !== undefined)
    safe.nearest = { ...error.nearest, diff: terminalSafe(error.nearest.diff) };
  return safe;
}

/** The report with every string a person will read made terminal-safe. */
export function terminalSafeReport(report: EditReport): EditReport {
  return {
    ...report,
    files: report.files.map((file) => ({
      ...file,
      path: terminalSafe(file.path),
      ...(file.movePath !== undefined && { movePath: terminalSafe(file.movePath) }),
      diff: terminalSafe(file.diff),
    })),
    diagnostics: report.diagnostics.map((r) => ({
      ...r,
      path: terminalSafe(r.path),
      diagnostics: r.diagnostics.map((d) => ({ ...d, message: terminalSafe(d.message) })),
    })),
    errors: report.errors.map(safeError),
  };
}
