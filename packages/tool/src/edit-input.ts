import type { StrReplaceCommand } from '@patchsmith/core';

/** Formats a patch text may be given in; `auto` detects it. */
export type PatchInputFormat = 'auto' | 'codex' | 'unified' | 'search-replace' | 'whole-file';

/** What an agent sends: a patch text (any supported format) or text-editor commands. */
export type EditInput =
  | { kind: 'patch'; text: string; format?: PatchInputFormat }
  | { kind: 'edits'; edits: StrReplaceCommand[] };
