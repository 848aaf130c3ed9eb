import { formatJson } from '@patchsmith/formatter';
import { formatUndo, loadConfig, redoLast, type UndoReport, undoLast } from '@patchsmith/tool';
import { EXIT_OK, EXIT_REJECTED, type Io } from '../io.js';
import { printJson, rootOf, say } from '../output.js';
import { flag, type ParsedCommandLine } from '../parse-command-line.js';
import { permissionGate } from './apply.js';
import { printHistory } from './log.js';

/** The root's rules of now, and the gate that asks on the terminal (`--yes` answers yes). */
async function gateOf(parsed: ParsedCommandLine, io: Io, root: string) {
  const config = await loadConfig(root);
  const policy = config.ok ? config.value.policy : undefined;
  // A broken config is left to undoLast, which refuses with its PARSE_ERROR.
  if (policy === undefined) return {};
  const ask = permissionGate(policy, io, { fromStdin: false, confirm: false, yes: flag(parsed, 'yes') });
  return { policy, ask };
}

function printRestore(report: UndoReport, parsed: ParsedCommandLine, io: Io, redo: boolean): number {
  // The apply's document (SPEC §5), plus which snapshot was restored and which were passed over.
  if (flag(parsed, 'json'))
    printJson(io, { ...JSON.parse(formatJson(report)), undone: report.undone, skipped: report.skipped });
  else if (report.ok) say(io, parsed, formatUndo(report, { redo }));
  else io.stderr(formatUndo(report, { redo }));
  return report.ok ? EXIT_OK : EXIT_REJECTED;
}

/**
 * `patchsmith undo [ID] [--force] [--yes]`: an undo is an edit like any other, so it passes the
 * root's rules of now through the same gate as `apply` (an `ask` rule prompts on the terminal;
 * `--yes` answers yes; a deny rule denies, `--force` or not). `--list` shows what it would take.
 */
export async function undoCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  const root = rootOf(io, parsed);
  if (flag(parsed, 'list')) return printHistory(parsed, io, { pending: true });
  const id = parsed.positionals[0];
  const report = await undoLast({
    root,
    ...(id !== undefined ? { id } : {}),
    force: flag(parsed, 'force'),
    ...(await gateOf(parsed, io, root)),
  });
  return printRestore(report, parsed, io, false);
}

/** `patchsmith redo [--force] [--yes]`: takes back the last undo, through the same gate. */
export async function redoCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  const root = rootOf(io, parsed);
  const report = await redoLast({ root, force: flag(parsed, 'force'), ...(await gateOf(parsed, io, root)) });
  return printRestore(report, parsed, io, true);
}
