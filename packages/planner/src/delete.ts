import type { DeleteFile } from '@patchsmith/grammar';
import { describeChange } from './diff.js';
import type { OpOutcome } from './outcome.js';
import { fileRequired, type PlanState } from './state.js';

/** `*** Delete File`: removes an existing file, text or binary. */
export function planDelete(op: DeleteFile, path: string, state: PlanState): OpOutcome {
  const slot = state.get(path);
  const refused = fileRequired(slot, path, op.line);
  if (refused !== null || slot.kind !== 'file') return { ok: false, errors: refused ?? [], paths: [path] };
  const change = describeChange(path, path, slot.bytes, null, (b) => state.decode(b));
  return {
    ok: true,
    file: { path, op: 'delete', ...change, chunks: [] },
    changes: [[path, { kind: 'missing' }]],
  };
}
