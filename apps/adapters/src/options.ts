import type { RunEditOptions } from '@patchsmith/tool';

/**
 * What every adapter passes on to `runEdit` for each call: the root the model's paths are relative
 * to, the permission gate (`ask`), the diagnostics hook (`diagnose`), snapshots and first-match.
 * `dryRun` is left out: an agent's edit tool always writes.
 */
export type AdapterOptions = Omit<RunEditOptions, 'dryRun'>;
