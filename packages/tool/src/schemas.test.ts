import { describe, expect, it } from 'vitest';
import {
  applyPatchInputSchema,
  editInputSchema,
  editsOf,
  editToolInputSchema,
  toolInputJsonSchemas,
  undoInputSchema,
  viewInputSchema,
} from './schemas.js';

describe('tool input schemas', () => {
  it('accepts the documented apply_patch, edit, undo and view inputs', () => {
    expect(applyPatchInputSchema.parse({ patch: 'x', format: 'codex' })).toEqual({
      patch: 'x',
      format: 'codex',
    });
    const edit = {
      command: 'str_replace',
      path: 'a',
      old_str: 'x',
      new_str: 'y',
      replace_all: true,
    } as const;
    expect(editToolInputSchema.parse({ edits: [edit] })).toEqual({ edits: [edit] });
    expect(undoInputSchema.parse({})).toEqual({});
    expect(viewInputSchema.parse({ path: 'a', view_range: [1, -1] })).toEqual({
      path: 'a',
      view_range: [1, -1],
    });
  });

  it.each([
    [applyPatchInputSchema, {}],
    [applyPatchInputSchema, { patch: 'x', format: 'diff3' }],
    [editToolInputSchema, { edits: [] }],
    [editToolInputSchema, { edits: [{ command: 'delete', path: 'a' }] }],
    [editToolInputSchema, { edits: [{ command: 'insert', path: 'a', insert_line: -1, new_str: 'x' }] }],
    [editToolInputSchema, { edits: [{ command: 'create', path: '', file_text: 'x' }] }],
    [undoInputSchema, { force: 'yes' }],
    [viewInputSchema, { path: 'a', view_range: [1] }],
  ])('rejects invalid input %#', (schema, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });

  it('reads one str_replace command or an array of them (the CLI JSON)', () => {
    const one = { command: 'create', path: 'a', file_text: 'x' } as const;
    expect(editsOf(editInputSchema.parse(one))).toEqual([one]);
    expect(editsOf(editInputSchema.parse([one, one]))).toEqual([one, one]);
    expect(editInputSchema.safeParse([]).success).toBe(false);
  });

  it('publishes object JSON Schemas with the required fields', () => {
    const schemas = toolInputJsonSchemas();
    expect(Object.keys(schemas).sort()).toEqual(['apply_patch', 'edit', 'undo', 'view']);
    for (const schema of Object.values(schemas)) expect(schema.type).toBe('object');
    expect(schemas.apply_patch.required).toEqual(['patch']);
    expect(schemas.edit.required).toEqual(['edits']);
    const items = (
      schemas.edit.properties as {
        edits: { items: { oneOf: { properties: { command: { const: string } } }[] } };
      }
    ).edits.items.oneOf;
    expect(items.map((i) => i.properties.command.const)).toEqual(['str_replace', 'create', 'insert']);
  });
});
