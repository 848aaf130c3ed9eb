import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type EditReport, formatHuman, formatJson } from '@patchsmith/formatter';
import type { EditError } from '@patchsmith/core';
import {
  type AskPermission,
  createPermissionGate,
  loadConfig,
  type PermissionPolicy,
  type PermissionPrompt,
  runEdit,
  startDiagnostics,
} from '@patchsmith/tool';
import { readEditInput, rejectedInput } from '../edit-input.js';
import { readVersionsFrom } from '../base-from.js';
import { EXIT_OK, EXIT_PARTIAL, EXIT_REJECTED, type Io, UsageError } from '../io.js';
import { answerSource, confirmEverything, terminalPrompt } from '../prompt.js';

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
    prompt: (request) => {
      prompt ??= terminalPrompt(io, source());
      return prompt(request);
    },
  });
}

function reject(errors: EditError[], json: boolean, io: Io): number {
  const report: EditReport = { ok: false, dryRun: false, files: [], diagnostics: [], snapshot: null, errors };
  if (json) io.stdout(formatJson(report));
  else io.stderr(formatHuman(report));
  return EXIT_REJECTED;
}

export async function applyCommand(args: string[], io: Io, { checkOnly = false } = {}): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cwd: { type: 'string' },
      format: { type: 'string', default: 'auto' },
      check: { type: 'boolean', default: checkOnly },
      json: { type: 'boolean', default: false },
      'first-match': { type: 'boolean', default: false },
      'allow-elision': { type: 'boolean', default: false },
      'no-snapshot': { type: 'boolean', default: false },
      diagnostics: { type: 'boolean' },
      confirm: { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
      diff: { type: 'boolean', default: false },
      partial: { type: 'boolean', default: false },
      'base-from': { type: 'string', multiple: true },
    },
  });
  if (values.confirm && values.yes) throw new UsageError('--confirm and --yes contradict each other');
  const input = await readEditInput(positionals, values.format, io);
  const readVersions = await readVersionsFrom(values['base-from'], io);
  const root = resolve(io.cwd, values.cwd ?? '.');
  const config = await loadConfig(root);
  if (!config.ok) return reject(config.errors, values.json, io);
  const fromStdin = positionals[0] === undefined || positionals[0] === '-';
  const ask = permissionGate(config.value.policy, io, {
    fromStdin,
    confirm: values.confirm,
    yes: values.yes,
  });
  const wantDiagnostics = (values.diagnostics ?? config.value.diagnostics) && !values.check;
  const diagnostics = wantDiagnostics ? await startDiagnostics(root) : null;
  let report: EditReport;
  try {
    report =
      'error' in input
        ? rejectedInput(input, values.check)
        : await runEdit(input, {
            root,
            dryRun: values.check,
            firstMatch: values['first-match'],
            allowElision: values['allow-elision'],
            snapshot: !values['no-snapshot'],
            ask,
            partial: values.partial,
            ...(readVersions ? { readVersions } : {}),
            ...(diagnostics ? { diagnose: diagnostics.diagnose } : {}),
          });
  } finally {
    await diagnostics?.dispose();
  }
  if (values.json) io.stdout(formatJson(report));
  else {
    const color = io.isTTY && !io.env.NO_COLOR;
    const text = formatHuman(report, { color, diffs: values.diff });
    (report.ok ? io.stdout : io.stderr)(text);
  }
  return report.ok ? EXIT_OK : report.partial ? EXIT_PARTIAL : EXIT_REJECTED;
}
