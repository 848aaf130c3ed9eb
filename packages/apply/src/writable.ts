import type { EditError } from '@patchsmith/core';
import type { TransactionStats } from './fs.js';
import { permissionBits } from './mode-bits.js';

// No one may write the file by its mode: no write bit for owner, group or others. Decided by the
// bits, not by access(2), since root may write anything and would replace a file its owner protected.
const isReadOnly = (stats: Pick<TransactionStats, 'mode'>) => (stats.mode & 0o222) === 0;

/**
 * `DENIED` for an existing file the user cannot write (mode 0444 and the like), which the
 * transaction would otherwise replace (or remove) by a rename; null when its mode allows writing.
 */
export function readOnlyProblem(path: string, stats: Pick<TransactionStats, 'mode'>): EditError | null {
  if (!isReadOnly(stats)) return null;
  const mode = permissionBits(stats.mode).toString(8).padStart(4, '0');
  return { code: 'DENIED', message: `${path} is read-only (mode ${mode}); nothing was written`, path };
}
