import { PatchsmithError } from '@patchsmith/core';
import type { RootContext } from './context.js';
import { displayPath } from './io-failure.js';

/** How a person clears a transaction folder that patchsmith will not use. */
export const DISCARD_HINT = '`patchsmith recover --discard` drops it (restoring nothing)';

/**
 * `STATE_INVALID` for a private state file or folder that cannot be trusted, naming it and what is
 * wrong; nothing was changed because of it.
 */
export function stateInvalid(
  ctx: Pick<RootContext, 'realRoot'>,
  what: string,
  path: string,
  problem: string,
  hint: string = DISCARD_HINT,
): PatchsmithError {
  const shown = displayPath(ctx.realRoot, path);
  return new PatchsmithError(
    'STATE_INVALID',
    `${what} ${shown} is invalid: ${problem}; nothing was changed; ${hint}`,
    {
      path: shown,
    },
  );
}
