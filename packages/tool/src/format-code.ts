import {
  decideNames,
  type FormatEntries,
  type PermissionPolicy,
  protectedPathReason,
  sameBytes,
} from '@patchsmith/core';
import { type Plan, type PlannedFile, restateWrite } from '@patchsmith/planner';
import { chooseFormatter, detectFormatter, type FormatSettings, type Formatter } from './choose-formatter.js';
import { formatWithPrettier, hasPrettier } from './prettier-in-process.js';
import { commandFor, type FormatOutcome, runFormatCommand } from './run-format-command.js';

/** How long one formatter run may take by default. */
export const FORMAT_TIMEOUT_MS = 10_000;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of bytes that are text (UTF-8 without NUL), else null. */
function textOf(bytes: Uint8Array): string | null {
  try {
    const text = strictUtf8.decode(bytes);
    return text.includes('\0') ? null : text;
  } catch {
    return null;
  }
}

/** Runs one formatter on a file's new text. Null: the formatter leaves this file alone. */
function runFormatter(
  formatter: Formatter,
  path: string,
  text: string,
  options: { root: string; timeoutMs: number },
): Promise<FormatOutcome | null> {
  if (formatter.kind === 'prettier') return formatWithPrettier(options.root, path, text);
  if (formatter.kind === 'missing') return Promise.resolve({ ok: false, note: formatter.note });
  return runFormatCommand(commandFor(formatter.argv, path), text, options);
}

/**
 * What may be written of a formatter's output: text, not empty for a file that is not, and not
 * the file as it was before the edit (a formatter that undoes the edit would make it a no-op).
 */
function refusedOutput(output: Uint8Array, input: Uint8Array, before: Uint8Array | null): string | null {
  if (textOf(output) === null) return 'its output is not UTF-8 text';
  if (output.length === 0 && input.length > 0) return 'its output is empty';
  if (before !== null && sameBytes(output, before)) return 'it would undo the edit';
  return null;
}

/** The plan's record of the file written at `path`. */
function recordAt(plan: Plan, path: string): PlannedFile | undefined {
  return plan.files.findLast((f) => f.op !== 'delete' && (f.movePath ?? f.path) === path);
}

/** Notes on a file's record which formatter ran and how it went. */
function noted(plan: Plan, path: string, formatted: NonNullable<PlannedFile['formatted']>): Plan {
  return { ...plan, files: plan.files.map((f) => (f === recordAt(plan, path) ? { ...f, formatted } : f)) };
}

export interface FormatPlanOptions {
  root: string;
  entries: FormatEntries;
  timeoutMs: number;
  /** The root's rules: a file they deny is refused by the transaction, and no formatter sees it first. */
  policy: PermissionPolicy;
}

/** A write the transaction will refuse whatever its bytes (denied, or patchsmith's own files). */
function refusedWrite(write: Plan['writes'][number], policy: PermissionPolicy): boolean {
  const names = write.realPath === undefined ? [write.path] : [write.path, write.realPath];
  return (
    names.some((name) => protectedPathReason(name) !== null) || decideNames(names, policy).action === 'deny'
  );
}

/**
 * The plan with each written text file run through the project's formatter (`format` entries of
 * `.patchsmith.json`, else the prettier or biome config found in the root), so what is written,
 * the diff reported and the snapshot agree. A formatter that fails leaves the file as the edit
 * made it, with a note on its record; it never fails the edit. Only the bytes change: the paths,
 * and so every path and permission rule, are the plan's.
 */
export async function formatPlan(plan: Plan, options: FormatPlanOptions): Promise<Plan> {
  const settings: FormatSettings = {
    root: options.root,
    entries: options.entries,
    detected: await detectFormatter(options.root),
    hasPrettier: await hasPrettier(options.root),
  };
  let result = plan;
  for (const write of plan.writes) {
    if (write.after === null || refusedWrite(write, options.policy)) continue;
    const text = textOf(write.after.bytes);
    const formatter = text === null ? null : await chooseFormatter(write.path, settings);
    if (formatter === null || text === null) continue;
    const outcome = await runFormatter(formatter, write.path, text, options);
    if (outcome === null) continue;
    const by = formatter.kind === 'prettier' ? 'prettier' : formatter.name;
    const kept = (note: string) => ({ by, ok: false, note: `${note}; written as the edit made it` });
    if (!outcome.ok) {
      result = noted(result, write.path, kept(outcome.note));
      continue;
    }
    const refused = refusedOutput(outcome.bytes, write.after.bytes, write.before?.bytes ?? null);
    if (refused !== null) {
      result = noted(result, write.path, kept(`${by}: ${refused}`));
      continue;
    }
    if (!sameBytes(outcome.bytes, write.after.bytes))
      result = restateWrite(result, write.path, outcome.bytes);
    result = noted(result, write.path, { by, ok: true });
  }
  return result;
}
