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
      ...(r.dependent ? { dependent: true as const } : {}),
    }));
  };
}

export interface StartDiagnosticsOptions {
  /**
   * The longest the whole collection may take, server start included (ms; default 15 s). Past it
   * every file is reported `timeout`, saying so, and the servers are shut down without waiting.
   */
  timeoutMs?: number;
  /** Told what takes time while it happens (`starting typescript-language-server…`, then how long it took). */
  onProgress?: (message: string) => void;
  /**
   * Run the language servers and TypeScript the project installed in its node_modules (its own
   * code): a host's setting for a project the user trusts, never the project's. Default false.
   */
  projectServers?: boolean;
}

export const DEFAULT_DIAGNOSTICS_TIMEOUT_MS = 15_000;

/** Every file as `timeout`: the collection did not finish within the caller's bound. */
function timedOut(root: string, edits: Parameters<DiagnoseWrites>[0], timeoutMs: number) {
  const note = `no answer within ${timeoutMs / 1000} s (the diagnostics timeout)`;
  return edits.map((e) => ({
    path: reportPath(root, e.path),
    status: 'timeout' as const,
    diagnostics: [],
    omitted: 0,
    note,
  }));
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
export async function startDiagnostics(
  root: string,
  options: StartDiagnosticsOptions = {},
): Promise<DiagnosticsHandle> {
  const { createDiagnosticsSession } = await import('@patchsmith/lsp');
  const timeoutMs = options.timeoutMs ?? DEFAULT_DIAGNOSTICS_TIMEOUT_MS;
  const session = createDiagnosticsSession({
    root,
    timeoutMs,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    projectServers: options.projectServers ?? false,
  });
  const collect = diagnoseWith(session, root);
  let late = false;
  const diagnose: DiagnoseWrites = async (edits) => {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<null>((done) => {
      timer = setTimeout(() => done(null), timeoutMs);
    });
    const results = await Promise.race([collect(edits), bound]).finally(() => clearTimeout(timer));
    if (results !== null) return results;
    late = true;
    return timedOut(root, edits, timeoutMs);
  };
  return { diagnose, dispose: () => session.dispose({ now: late }) };
}
