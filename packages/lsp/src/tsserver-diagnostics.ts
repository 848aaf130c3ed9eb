import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';

/** A diagnostic as tsserver's `*DiagnosticsSync` commands answer it: 1-based line and offset. */
export interface TsserverDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
}

const SEVERITY_BY_CATEGORY: Record<string, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  message: DiagnosticSeverity.Information,
  suggestion: DiagnosticSeverity.Hint,
};

/** tsserver's diagnostics in LSP shape, as typescript-language-server itself would push them. */
export function tsserverToLsp(diagnostics: readonly TsserverDiagnostic[]): LspDiagnostic[] {
  return diagnostics.map((d) => ({
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity: SEVERITY_BY_CATEGORY[d.category ?? 'error'] ?? DiagnosticSeverity.Error,
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: d.source ?? 'typescript',
    message: d.text,
  }));
}
