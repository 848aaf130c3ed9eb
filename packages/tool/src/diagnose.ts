import { relative, sep } from 'node:path';
import type { DiagnosticsSession } from '@patchsmith/lsp';
import type { DiagnoseWrites } from './run-edit.js';

/** Root-relative, `/`-separated: how every other part of a report names a file. */
function reportPath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}

/**
 * Adapts a language-server session to the pipeline's `diagnose` hook. A long-lived host keeps one
 * session (warm servers) for many edits; the one-shot CLI makes one per run and disposes it.
 */
export function diagnoseWith(session: DiagnosticsSession, root: string): DiagnoseWrites {
  return async (edits) => {
    const results = await session.collect(edits);
    return results.map((r) => ({
      path: reportPath(root, r.path),
      status: r.status,
      diagnostics: r.diagnostics,
      omitted: r.omitted,
      ...(r.note !== undefined ? { note: r.note } : {}),
    }));
  };
}

/** A diagnostics hook with warm servers for one root, and how to stop them. */
export interface DiagnosticsHandle {
  diagnose: DiagnoseWrites;
  dispose: () => Promise<void>;
}

/**
 * Starts a language-server session for `root` (servers themselves start on the first edit that
 * needs them). `@patchsmith/lsp` is loaded only here, so hosts that never diagnose never pay for it.
 */
export async function startDiagnostics(root: string): Promise<DiagnosticsHandle> {
  const { createDiagnosticsSession } = await import('@patchsmith/lsp');
  const session = createDiagnosticsSession({ root });
  return { diagnose: diagnoseWith(session, root), dispose: () => session.dispose() };
}
