import { describe, expect, it } from 'vitest';
import {
  applyPatchInputSchema,
  editInputSchema,
  editsOf,
  editToolInputSchema,
  toolEdits,
  toolInputJsonSchemas,
  undoInputSchema,
  viewInputSchema,
} from './schemas.js';
import { strictModeProblems } from './strict-mode.js';

describe('tool input schemas', () => {
  it('accepts the documented apply_patch, edit, undo and view inputs', () => {
    expect(applyPatchInputSchema.parse({ patch: 'x', format: 'codex' })).toEqual({
      patch: 'x',
      format: 'codex',
    });
    expect(applyPatchInputSchema.parse({ patch: 'x', format: null }).format).toBeNull();
    const edit = {
      command: 'str_replace',
      path: 'a',
      old_str: 'x',
      new_str: 'y',
      replace_all: true,
    } as const;
    expect(editToolInputSchema.parse({ edits: [edit] })).toEqual({ edits: [edit] });
    const nulls = {
      command: 'str_replace',
      path: 'a',
      old_str: 'x',
      new_str: null,
      replace_all: null,
    } as const;
    expect(toolEdits(editToolInputSchema.parse({ edits: [nulls, edit] }))).toEqual([
      { command: 'str_replace', path: 'a', old_str: 'x' },
      edit,
    ]);
    expect(undoInputSchema.parse({ id: null, force: null })).toEqual({ id: null, force: null });
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
    [editToolInputSchema, { edits: [{ command: 'create', path: '  ', file_text: 'x' }] }],
    [editToolInputSchema, { edits: [{ command: 'create', path: 'a', file_text: 'x', extra: 1 }] }],
    [undoInputSchema, { id: null, force: 'yes' }],
    // Strict mode: every field is sent, null for absent; a field left out is a malformed call.
    [undoInputSchema, {}],
    [applyPatchInputSchema, { patch: 'x' }],
    [viewInputSchema, { path: 'a', view_range: [1] }],
    [viewInputSchema, { path: 'a', view_range: [1, 2, 3] }],
  ])('rejects invalid input %#', (schema, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });

  it('reads one str_replace command or an array of them (the CLI JSON)', () => {
    const one = { command: 'create', path: 'a', file_text: 'x' } as const;
    expect(editsOf(editInputSchema.parse(one))).toEqual([one]);
    expect(editsOf(editInputSchema.parse([one, one]))).toEqual([one, one]);
    expect(editInputSchema.safeParse([]).success).toBe(false);
  });

  it('publishes object JSON Schemas valid in OpenAI strict mode', () => {
    const schemas = toolInputJsonSchemas();
    expect(Object.keys(schemas).sort()).toEqual(['apply_patch', 'edit', 'undo', 'view']);
    for (const schema of Object.values(schemas)) expect(strictModeProblems(schema)).toEqual([]);
    expect(schemas.apply_patch.required).toEqual(['patch', 'format']);
    expect(schemas.edit.required).toEqual(['edits']);
    const items = (
      schemas.edit.properties as {
        edits: { items: { anyOf: { properties: { command: { enum: string[] } } }[] } };
      }
    ).edits.items.anyOf;
    expect(items.map((i) => i.properties.command.enum)).toEqual([['str_replace'], ['create'], ['insert']]);
  });

  it('finds what strict mode refuses (the checker can fail)', () => {
    expect(strictModeProblems({ type: 'object', properties: { a: { type: 'string' } } })).toEqual([
      '$: additionalProperties is not false',
      '$: required [] is not every property ["a"]',
    ]);
    expect(
      strictModeProblems({ type: 'object', properties: {}, additionalProperties: false, oneOf: [] }),
    ).toEqual(['$: oneOf']);
  });
});
