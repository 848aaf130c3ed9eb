import type { StrReplaceCommand } from '@patchsmith/core';
import { z } from 'zod';

/** Every tool input schema is one of these: zod for validation, `z.toJSONSchema` for the wire. */

export const PATCH_FORMATS = ['auto', 'codex', 'unified', 'search-replace', 'whole-file'] as const;

/**
 * The tool-call schemas (`apply_patch`, `edit`, `undo`, `view`) are valid in OpenAI's strict mode
 * as they are: every object closed (`additionalProperties: false`) with all its properties
 * required, an absent value sent as `null`, unions as `anyOf` (never `oneOf`), no `minLength`;
 * every host (MCP, the SDK adapters) uses these, so a model sees one shape everywhere.
 */

/** A string with something in it: `pattern`, since strict mode has no `minLength`. */
const nonBlank = () => z.string().regex(/\S/, 'must not be empty');

/** The `apply_patch` tool: one patch text, in any supported format. */
export const applyPatchInputSchema = z.strictObject({
  patch: z
    .string()
    .describe(
      'The patch text. Codex format: "*** Begin Patch", then "*** Add File: path" / "*** Update File: path" / ' +
        '"*** Delete File: path" sections with @@ chunks of " " context, "-" removed and "+" added lines, then "*** End Patch".',
    ),
  format: z.enum(PATCH_FORMATS).nullable().describe('The patch format; null or "auto" detects it.'),
});

const pathDescription = 'File path, relative to the project root (or absolute inside it).';
const pathField = z.string().min(1).describe(pathDescription);
const toolPathField = nonBlank().describe(pathDescription);

const describe = {
  old_str: 'The text to replace; it must identify one place in the file.',
  new_str: 'The replacement text (empty or absent deletes old_str).',
  replace_all: 'Replace every occurrence instead of requiring a unique one.',
  file_text: 'The whole content of the new file.',
  insert_line: 'Insert after this 1-based line; 0 inserts at the top.',
  insert_str: 'The text to insert.',
} as const;

const strReplaceSchema = z.object({
  command: z.literal('str_replace'),
  path: pathField,
  old_str: z.string().describe(describe.old_str),
  new_str: z.string().optional().describe(describe.new_str),
  replace_all: z.boolean().optional().describe(describe.replace_all),
});

const createSchema = z.object({
  command: z.literal('create'),
  path: pathField,
  file_text: z.string().describe(describe.file_text),
});

const insertLine = () => z.number().int().min(0).describe(describe.insert_line);

const insertSchema = z.object({
  command: z.literal('insert'),
  path: pathField,
  insert_line: insertLine(),
  new_str: z.string().describe(describe.insert_str),
});

/** One text-editor command (`StrReplaceCommand` of `@patchsmith/core`). */
export const strReplaceCommandSchema = z.discriminatedUnion('command', [
  strReplaceSchema,
  createSchema,
  insertSchema,
]);

/** The str_replace JSON the CLI reads: one command or an array of them (SPEC §7). */
export const editInputSchema = z.union([strReplaceCommandSchema, z.array(strReplaceCommandSchema).min(1)]);

/** The commands as a tool call carries them: closed, every field present (`null` for absent). */
const toolCommandSchema = z.union([
  z.strictObject({
    command: z.enum(['str_replace']),
    path: toolPathField,
    old_str: z.string().describe(describe.old_str),
    new_str: z.string().nullable().describe(describe.new_str),
    replace_all: z.boolean().nullable().describe(describe.replace_all),
  }),
  z.strictObject({
    command: z.enum(['create']),
    path: toolPathField,
    file_text: z.string().describe(describe.file_text),
  }),
  z.strictObject({
    command: z.enum(['insert']),
    path: toolPathField,
    insert_line: insertLine(),
    new_str: z.string().describe(describe.insert_str),
  }),
]);

/**
 * The `edit` tool: tool-calling APIs want an object at the top of an input schema, so the commands
 * travel in `edits`; they are applied together, all or nothing. `toolEdits` reads them.
 */
export const editToolInputSchema = z.strictObject({
  edits: z
    .array(toolCommandSchema)
    .min(1)
    .describe('The edits, applied in order against the file as the previous ones left it; all or nothing.'),
});

/** The `undo` tool: restore the files of an apply. */
export const undoInputSchema = z.strictObject({
  id: nonBlank().nullable().describe('The snapshot id to undo; null undoes the latest apply not yet undone.'),
  force: z
    .boolean()
    .nullable()
    .describe('Undo even when files changed since the apply (their changes are lost).'),
});

/** A `view` request, as the Anthropic text editor's `view` command has it. */
export const viewInputSchema = z.strictObject({
  path: nonBlank().describe('File or folder path, relative to the project root (or absolute inside it).'),
  view_range: z
    .array(z.number().int())
    .length(2)
    .nullable()
    .describe(
      '[start, end] 1-based lines, inclusive; end -1 means to the end of the file; null: the whole file.',
    ),
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

/** The commands of an `edit` tool call as `runEdit` takes them: a `null` field is an absent one. */
export function toolEdits(input: EditToolInput): StrReplaceCommand[] {
  return input.edits.map((edit): StrReplaceCommand => {
    if (edit.command !== 'str_replace') return edit;
    const { new_str, replace_all, ...rest } = edit;
    return {
      ...rest,
      ...(new_str !== null ? { new_str } : {}),
      ...(replace_all !== null ? { replace_all } : {}),
    };
  });
}

/** The commands of an `editInputSchema` value, always as an array. */
export function editsOf(input: z.infer<typeof editInputSchema>): StrReplaceCommand[] {
  return Array.isArray(input) ? input : [input];
}
