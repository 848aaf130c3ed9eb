import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import type { FileDiagnostic } from './types.js';

/** Whether a diagnostic is an error (severity 1); warnings, hints and unset severities are not reported. */
export function isError(diagnostic: LspDiagnostic): boolean {
  return diagnostic.severity === DiagnosticSeverity.Error;
}

/** A diagnostic's message as plain text (LSP 3.18 lets a server send it as markup). */
function messageText(diagnostic: LspDiagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}

/** What makes two errors "the same error" across an edit: everything but the position. */
export function errorIdentity(diagnostic: LspDiagnostic): string {
  return JSON.stringify([messageText(diagnostic), diagnostic.code ?? null, diagnostic.source ?? null]);
}

function byPosition(a: LspDiagnostic, b: LspDiagnostic): number {
  return (
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    a.range.end.line - b.range.end.line ||
    a.range.end.character - b.range.end.character
  );
}

function groupByIdentity(diagnostics: readonly LspDiagnostic[]): Map<string, LspDiagnostic[]> {
  const groups = new Map<string, LspDiagnostic[]>();
  for (const d of diagnostics) {
    const key = errorIdentity(d);
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  return groups;
}

/**
 * The errors after an edit that were not there before it, in file order. An error whose message,
 * code and source existed before is the old error, wherever it moved; when an identity occurs more
 * often than before, each old occurrence claims the nearest new one by line and the rest are new.
 */
export function newErrors(
  before: readonly LspDiagnostic[],
  after: readonly LspDiagnostic[],
): LspDiagnostic[] {
  const old = groupByIdentity(before.filter(isError));
  const fresh: LspDiagnostic[] = [];
  for (const [key, occurrences] of groupByIdentity(after.filter(isError))) {
    const previous = old.get(key) ?? [];
    if (occurrences.length <= previous.length) continue;
    const unclaimed = new Set(occurrences);
    for (const was of previous) {
      let nearest: LspDiagnostic | undefined;
      for (const candidate of unclaimed) {
        const distance = Math.abs(candidate.range.start.line - was.range.start.line);
        if (!nearest || distance < Math.abs(nearest.range.start.line - was.range.start.line))
          nearest = candidate;
      }
      if (nearest) unclaimed.delete(nearest);
    }
    for (const d of unclaimed) fresh.push(d);
  }
  return fresh.sort(byPosition);
}

/** The reported shape of a diagnostic: only the fields the contract names. */
export function toFileDiagnostic(d: LspDiagnostic): FileDiagnostic {
  return {
    range: {
      start: { line: d.range.start.line, character: d.range.start.character },
      end: { line: d.range.end.line, character: d.range.end.character },
    },
    severity: d.severity ?? DiagnosticSeverity.Error,
    ...(d.code !== undefined ? { code: d.code } : {}),
    ...(d.source !== undefined ? { source: d.source } : {}),
    message: messageText(d),
  };
}

/** At most `limit` new errors to list, and how many more there were. */
export function capErrors(
  errors: readonly LspDiagnostic[],
  limit: number,
): { listed: FileDiagnostic[]; omitted: number } {
  const listed = errors.slice(0, Math.max(0, limit)).map(toFileDiagnostic);
  return { listed, omitted: errors.length - listed.length };
}
