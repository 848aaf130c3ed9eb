import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type EditError, PatchsmithError } from '@patchsmith/core';
import { formatJson } from '@patchsmith/formatter';
import { type EditReport, formatForModel } from '@patchsmith/tool';

/** A tool result: the text the model reads, the JSON report beside it when there is one. */
export function toolResult(text: string, ok: boolean, structured?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    isError: !ok,
  };
}

/** The report as `patchsmith --json` prints it (SPEC §5), for `structuredContent`. */
export function reportDocument(report: EditReport): Record<string, unknown> {
  return JSON.parse(formatJson(report)) as Record<string, unknown>;
}

/**
 * An edit's result: the model-facing text, and for a preview the whole diff after it (what would
 * be written), with the JSON report as structured content.
 */
export function reportResult(report: EditReport, preview = false): CallToolResult {
  const diff = preview && report.ok ? `\n${report.files.map((f) => f.diff).join('')}` : '';
  return toolResult(`${formatForModel(report)}${diff}`, report.ok, reportDocument(report));
}

/** Errors found before any edit was planned (a broken config, a root outside the client's), as a rejected edit reads. */
export function refusedResult(errors: EditError[]): CallToolResult {
  return reportResult({ ok: false, dryRun: false, files: [], diagnostics: [], snapshot: null, errors });
}

/**
 * A call that threw (a broken journal's `STATE_INVALID`, an I/O failure) is that call's tool
 * error with its code; the server goes on serving.
 */
export function thrownResult(error: unknown): CallToolResult {
  if (error instanceof PatchsmithError) return toolResult(`${error.code}: ${error.message}`, false);
  return toolResult(`IO_ERROR: ${error instanceof Error ? error.message : String(error)}`, false);
}
