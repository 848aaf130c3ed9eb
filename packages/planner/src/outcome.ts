import type { EditError } from '@patchsmith/core';
import type { Slot } from './state.js';
import type { PlannedFile } from './types.js';

/** What planning one operation yields: its reviewable record and the slots it changes, or its errors. */
export type OpOutcome =
  | { ok: true; file: PlannedFile; changes: Array<[path: string, slot: Slot]> }
  /** `paths`: what the failed operation would have touched; their state is unknown from here on. */
  | {
      ok: false;
      errors: EditError[];
      paths: string[];
      /** The change is already in the file (its new lines are there, its old lines are not). */
      alreadyApplied?: boolean;
    };
