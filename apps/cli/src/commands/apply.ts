import { syncFs } from '@patchsmith/apply';
import type { EditError, EditScript } from '@patchsmith/core';
import { type EditReport, formatHuman, formatJson } from '@patchsmith/formatter';
import {
  type AskPermission,
  createPermissionGate,
  loadConfig,
  type PermissionPolicy,
  type PermissionPrompt,
  runEdit,
  type StartDiagnosticsOptions,
  startDiagnostics,
} from '@patchsmith/tool';
import { checkBasesTouched, readVersionsFrom } from '../base-from.js';
import { readEditInput, rejectedInput } from '../edit-input.js';
import { gitApplyMapping, saySkipped, withSkipped } from '../git-apply-paths.js';
import { EXIT_OK, EXIT_PARTIAL, EXIT_REJECTED, type Io, UsageError } from '../io.js';
import { rootOf, say, wantsColor } from '../output.js';
import { flag, option, options, type ParsedCommandLine } from '../parse-command-line.js';
import { missingPathHints } from '../path-hints.js';
import { answerSource, confirmEverything } from '../prompt.js';

/**
 * The permission gate of one CLI run: the root's policy, with every allowed path asked about under
 * `--confirm`; `--yes` answers every ask with yes (a deny rule still denies). Without anyone to ask,
 * an ask is refused with a message that says how to allow it.
 */
export function permissionGate(
  policy: PermissionPolicy,
  io: Io,
  flags: { fromStdin: boolean; confirm: boolean; yes: boolean },
): AskPermission {
  if (flags.yes) return createPermissionGate({ policy, prompt: () => 'yes' });
  const effective = flags.confirm ? confirmEverything(policy) : policy;
  // Only a policy that can ask needs a way to ask (and only then is the terminal opened).
  const source = effective.rules.some((r) => r.action === 'ask')
    ? answerSource(io, flags.fromStdin, flags.confirm)
    : null;
  if (!source) return createPermissionGate({ policy: effective });
  let prompt: PermissionPrompt | undefined;
  return createPermissionGate({
    policy: effective,
    prompt: async (request) => {
      prompt ??= (await import('../terminal-prompt.js')).terminalPrompt(io, await source());
      return prompt(request);
    },
  });
}

/** Prints a refusal made before anything was written, with a hint for each path that is not there. */
export async function reject(errors: EditError[], json: boolean, io: Io, root: string, dryRun = false) {
  const report: EditReport = { ok: false, dryRun, files: [], diagnostics: [], snapshot: null, errors };
  if (json) io.stdout(formatJson(report));
  else io.stderr(formatHuman(report) + (await missingPathHints(errors, root)));
  return EXIT_REJECTED;
}

/** `--diagnostics-timeout` in seconds, and progress on stderr while servers start (not with `--quiet`). */
function diagnosticsOptions(parsed: ParsedCommandLine, io: Io): StartDiagnosticsOptions {
  const seconds = option(parsed, 'diagnostics-timeout');
  if (seconds !== undefined && !/^\d+(\.\d+)?$/.test(seconds)) {
    throw new UsageError(`--diagnostics-timeout ${seconds}: expected a number of seconds`);
  }
  return {
    ...(seconds !== undefined ? { timeoutMs: Number(seconds) * 1000 } : {}),
    projectServers: flag(parsed, 'project-servers'),
    ...(flag(parsed, 'quiet')
      ? {}
      : { onProgress: (message: string) => io.stderr(`patchsmith: ${message}\n`) }),
  };
}

export async function applyCommand(parsed: ParsedCommandLine, io: Io): Promise<number> {
  const check = flag(parsed, 'check');
  const json = flag(parsed, 'json');
  const { positionals } = parsed;
  if (flag(parsed, 'confirm') && flag(parsed, 'yes'))
    throw new UsageError('--confirm and --yes contradict each other');
  const input = await readEditInput(positionals, option(parsed, 'format') ?? 'auto', io);
  const readVersions = await readVersionsFrom(options(parsed, 'base-from'), io);
  const root = rootOf(io, parsed);
  const paths = 'error' in input ? null : await gitApplyMapping(root, input, parsed);
  const mapScript = (script: EditScript) => {
    const mapped = paths!.mapScript(script);
    return mapped.ok ? { ok: true as const, value: checkBasesTouched(mapped.value, readVersions) } : mapped;
  };
  const config = await loadConfig(root);
  if (!config.ok) return reject(config.errors, json, io, root);
  const fromStdin = positionals[0] === undefined || positionals[0] === '-';
  const ask = permissionGate(config.value.policy, io, {
    fromStdin,
    confirm: flag(parsed, 'confirm'),
    yes: flag(parsed, 'yes'),
  });
  const asked = parsed.values.diagnostics === true ? true : undefined;
  const wantDiagnostics = (asked ?? config.value.diagnostics) && !check;
  const diagnostics = wantDiagnostics ? await startDiagnostics(root, diagnosticsOptions(parsed, io)) : null;
  let report: EditReport;
  try {
    report =
      'error' in input
        ? rejectedInput(input, check)
        : await runEdit(input, {
            root,
            mapScript,
            // A one-shot process: synchronous calls, no thread-pool round trip each.
            fs: syncFs,
            dryRun: check,
            firstMatch: flag(parsed, 'first-match'),
            allowElision: flag(parsed, 'allow-elision'),
            snapshot: !flag(parsed, 'no-snapshot'),
            ask,
            partial: flag(parsed, 'partial'),
            formatCode: flag(parsed, 'format-code'),
            ...(readVersions ? { readVersions } : {}),
            ...(diagnostics ? { diagnose: diagnostics.diagnose } : {}),
          });
  } finally {
    await diagnostics?.dispose();
  }
  const human = () => formatHuman(report, { color: wantsColor(io), diffs: flag(parsed, 'diff') });
  const skipped = report.ok || report.partial ? (paths?.skipped ?? []) : [];
  if (json) io.stdout(withSkipped(formatJson(report), skipped));
  else if (!report.ok) io.stderr(human() + (await missingPathHints(report.errors, root)));
  else say(io, parsed, human());
  if (!json && paths !== null) saySkipped(io, parsed, { ...paths, skipped });
  return report.ok ? EXIT_OK : report.partial ? EXIT_PARTIAL : EXIT_REJECTED;
}
