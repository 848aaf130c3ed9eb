import type { StrReplaceCommand } from '@patchsmith/core';
import { z } from 'zod';

/** Every tool input schema is one of these: zod for validation, `z.toJSONSchema` for the wire. */

export const PATCH_FORMATS = ['auto', 'codex', 'unified', 'search-replace', 'whole-file'] as const;

/** The `apply_patch` tool: one patch text, in any supported format. */
export const applyPatchInputSchema = z.object({
  patch: z
    .string()
    .describe(
      'The patch text. Codex format: "*** Begin Patch", then "*** Add File: path" / "*** Update File: path" / ' +
        '"*** Delete File: path" sections with @@ chunks of " " context, "-" removed and "+" added lines, then "*** End Patch".',
    ),
  format: z.enum(PATCH_FORMATS).optional().describe('The patch format; "auto" (the default) detects it.'),
});

const pathField = z
  .string()
  .min(1)
  .describe('File path, relative to the project root (or absolute inside it).');

const strReplaceSchema = z.object({
  command: z.literal('str_replace'),
  path: pathField,
  old_str: z.string().describe('The text to replace; it must identify one place in the file.'),
  new_str: z.string().optional().describe('The replacement text (empty or absent deletes old_str).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring a unique one.'),
});

const createSchema = z.object({
  command: z.literal('create'),
  path: pathField,
  file_text: z.string().describe('The whole content of the new file.'),
});

const insertSchema = z.object({
  command: z.literal('insert'),
  path: pathField,
  insert_line: z.number().int().min(0).describe('Insert after this 1-based line; 0 inserts at the top.'),
  new_str: z.string().describe('The text to insert.'),
});

/** One text-editor command (`StrReplaceCommand` of `@patchsmith/core`). */
export const strReplaceCommandSchema = z.discriminatedUnion('command', [
  strReplaceSchema,
  createSchema,
  insertSchema,
]);

/** The str_replace JSON the CLI reads: one command or an array of them (SPEC §7). */
export const editInputSchema = z.union([strReplaceCommandSchema, z.array(strReplaceCommandSchema).min(1)]);

/**
 * The `edit` tool: tool-calling APIs want an object at the top of an input schema, so the commands
 * travel in `edits`; they are applied together, all or nothing.
 */
export const editToolInputSchema = z.object({
  edits: z
    .array(strReplaceCommandSchema)
    .min(1)
    .describe('The edits, applied in order against the file as the previous ones left it; all or nothing.'),
});

/** The `undo` tool: restore the files of an apply. */
export const undoInputSchema = z.object({
  id: z
    .string()
    .min(1)
    .optional()
    .describe('The snapshot id to undo; the latest apply not yet undone when absent.'),
  force: z
    .boolean()
    .optional()
    .describe('Undo even when files changed since the apply (their changes are lost).'),
});

/** A `view` request, as the Anthropic text editor's `view` command has it. */
export const viewInputSchema = z.object({
  path: z
    .string()
    .min(1)
    .describe('File or folder path, relative to the project root (or absolute inside it).'),
  view_range: z
    .tuple([z.number().int(), z.number().int()])
    .optional()
    .describe('[start, end] 1-based lines, inclusive; end -1 means to the end of the file.'),
});

export type ApplyPatchToolInput = z.infer<typeof applyPatchInputSchema>;
export type EditToolInput = z.infer<typeof editToolInputSchema>;
export type UndoToolInput = z.infer<typeof undoInputSchema>;
export type ViewInput = z.infer<typeof viewInputSchema>;

// Keeps the schema and core's command type in step: a drift fails the typecheck here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const commandTypeMatches: Same<z.infer<typeof strReplaceCommandSchema>, StrReplaceCommand> = true;
void commandTypeMatches;

/** The JSON Schema of each tool input, for APIs that take JSON Schema rather than zod. */
export function toolInputJsonSchemas(): Record<
  'apply_patch' | 'edit' | 'undo' | 'view',
  Record<string, unknown>
> {
  const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return {
    apply_patch: json(applyPatchInputSchema),
    edit: json(editToolInputSchema),
    undo: json(undoInputSchema),
    view: json(viewInputSchema),
  };
}

/** The commands of an `editInputSchema` value, always as an array. */
export function editsOf(input: z.infer<typeof editInputSchema>): StrReplaceCommand[] {
  return Array.isArray(input) ? input : [input];
}
