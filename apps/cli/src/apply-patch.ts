import { syncFs } from '@patchsmith/apply';
import type { EditScript } from '@patchsmith/core';
import { formatApplyPatch } from '@patchsmith/formatter';
import { runEdit } from '@patchsmith/tool';
import { argumentBytes } from './argument-bytes.js';
import { type DecodedInput, decodeInput } from './decode-input.js';
import { rejectedInput } from './edit-input.js';
import { EXIT_OK, EXIT_REJECTED, type Io, processIo, readInput, stdinIsTTY, UsageError } from './io.js';
import { runCommand } from './run-command.js';

const USAGE = `usage: apply_patch 'PATCH'   or   echo 'PATCH' | apply_patch\n`;

/** `APPLY_PATCH_FIRST_MATCH=1`: the reference's first-match behaviour for ambiguous chunks. */
function firstMatchFromEnv(env: NodeJS.ProcessEnv): boolean {
  const v = env.APPLY_PATCH_FIRST_MATCH;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** The patch argument, checked against the bytes the OS passed where it shows them. */
function decodeArgument(argument: string): DecodedInput {
  const bytes = argumentBytes(argument);
  return bytes === null ? { ok: true, text: argument } : decodeInput(bytes);
}

/** The drop-in for the reference `apply_patch`: the patch as the one argument or on stdin. */
export async function applyPatchMain(argv: string[], io: Io = processIo()): Promise<number> {
  return runCommand(io, USAGE, async () => {
    if (argv.length > 1) throw new UsageError('expected exactly one argument: the patch text');
    if (argv[0] === '--help' || argv[0] === '-h') {
      io.stdout(USAGE);
      return EXIT_OK;
    }
    if (argv.length === 0 && stdinIsTTY(io)) throw new UsageError('no patch given');
    const decoded =
      argv[0] === undefined ? decodeInput(await readInput(undefined, io)) : decodeArgument(argv[0]);
    // The script as parsed, for the paths as written: the reference prints them so (runEdit's are canonical).
    let script: EditScript | undefined;
    const report = decoded.ok
      ? await runEdit(
          { kind: 'patch', text: decoded.text },
          {
            root: io.cwd,
            firstMatch: firstMatchFromEnv(io.env),
            snapshot: 'in-repository',
            // A one-shot process: synchronous calls, no thread-pool round trip each.
            fs: syncFs,
            onParsed: (parsed) => {
              script = parsed;
            },
          },
        )
      : rejectedInput({ error: decoded.message, line: decoded.line }, false);
    const out = formatApplyPatch(report, { cwd: io.cwd, ...(script !== undefined ? { script } : {}) });
    io.stdout(out.stdout);
    io.stderr(out.stderr);
    return report.ok ? EXIT_OK : EXIT_REJECTED;
  });
}
