import { z } from 'zod';

// What `structuredContent` holds, per tool. Loose objects: a field added to the report later is
// no breach of the schema a client validated against.

const reportedError = z.looseObject({ code: z.string(), message: z.string() });

/** The JSON report of `apply_patch` and `edit` (SPEC §5, as `patchsmith --json` prints it). */
export const editReportSchema = z.looseObject({
  ok: z.boolean(),
  dryRun: z.boolean().describe('True for a preview: nothing was written.'),
  files: z.array(
    z.looseObject({
      path: z.string(),
      op: z.string(),
      additions: z.number(),
      deletions: z.number(),
      diff: z.string(),
    }),
  ),
  diagnostics: z.array(z.unknown()),
  snapshot: z.string().nullable().describe('The undo id of this edit, or null.'),
  errors: z.array(reportedError),
});

/** `undo`: the report of the restore and the snapshot it undid. */
export const undoReportSchema = editReportSchema.extend({ undone: z.string().nullable() });

/** `view`: the file's numbered lines or the folder's listing, or why it cannot be shown. */
export const viewResultSchema = z.looseObject({
  ok: z.boolean(),
  path: z.string(),
  kind: z.enum(['file', 'directory']).optional(),
  text: z.string().optional(),
  truncated: z.boolean().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});

/** `log`: the snapshots, newest first, then those that cannot be used. */
export const logResultSchema = z.looseObject({
  snapshots: z.array(
    z.looseObject({
      id: z.string(),
      time: z.string().nullable(),
      message: z.string().nullable(),
      paths: z.array(z.string()),
      undone: z.boolean(),
      invalid: z.string().nullable(),
    }),
  ),
});
