import { PatchsmithError } from '@patchsmith/core';
import { EXIT_REJECTED, EXIT_USAGE, type Io, UsageError } from './io.js';
import { missingInputHint } from './path-hints.js';

/** Node's parseArgs reports a bad flag with an ERR_PARSE_ARGS_* code. */
function isParseArgsError(error: unknown): error is Error {
  return (
    error instanceof Error && String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS')
  );
}

/** A file named on the command line could not be read. */
function isMissingInput(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES';
}

/**
 * Runs one command and maps what escapes it to an exit status: usage mistakes exit 2, known
 * errors exit 1 with their code; only a real bug shows a stack (with PATCHSMITH_DEBUG=1).
 */
export async function runCommand(
  io: Io,
  usage: string,
  body: () => Promise<number>,
  { json = false } = {},
): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.stderr(`error: ${error.message}\n${usage}`);
      return EXIT_USAGE;
    }
    if (error instanceof PatchsmithError && json) {
      io.stdout(`${JSON.stringify({ ok: false, errors: [error.toEditError()] }, null, 2)}\n`);
      return EXIT_REJECTED;
    }
    if (error instanceof PatchsmithError) {
      io.stderr(`${error.code}: ${error.message}\n`);
      return EXIT_REJECTED;
    }
    if (isMissingInput(error)) {
      const hint = error.code === 'ENOENT' && error.path ? await missingInputHint(error.path, io) : '';
      io.stderr(`error: cannot read ${error.path ?? 'input'} (${error.code})${hint}\n`);
      return EXIT_USAGE;
    }
    const detail = io.env.PATCHSMITH_DEBUG && error instanceof Error ? `\n${error.stack}` : '';
    io.stderr(`IO_ERROR: ${error instanceof Error ? error.message : String(error)}${detail}\n`);
    return EXIT_REJECTED;
  }
}
