/** The Anthropic text editor's documented contract, where the first adapter broke it (issue 16). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import {
  createTextEditorRunnableTool,
  handleTextEditorCommand,
  type TextEditorInput,
} from './anthropic-text-editor.js';
import { handleApplyPatchCall } from './openai-responses.js';

type Project = Awaited<ReturnType<typeof tempProject>>;
let project: Project;
beforeEach(async () => {
  project = await tempProject({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
});
afterEach(async () => {
  await project.remove();
});

const run = (input: unknown, extra: Record<string, unknown> = {}) =>
  handleTextEditorCommand(input as TextEditorInput, { root: project.root, ...extra });

describe('the text editor contract', () => {
  it.each([null, undefined, 'view', 42, ['view']])(
    'answers an input that is no object (%s) with an error, not a TypeError',
    async (input) => {
      expect(await run(input)).toEqual({
        content: 'Error: the tool input must be an object with a `command`',
        isError: true,
      });
    },
  );

  it('refuses create over an existing file, and leaves it', async () => {
    const result = await run({ command: 'create', path: 'a.txt', file_text: 'overwritten\n' });
    expect(result).toEqual({
      content: 'Error: File already exists at: a.txt. Cannot overwrite files using command `create`.',
      isError: true,
    });
    expect(await project.read('a.txt')).toBe('one\n');
  });

  it('undo_edit undoes the latest edit of the path it names, not the latest edit', async () => {
    await run({ command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'ONE' });
    await run({ command: 'str_replace', path: 'b.txt', old_str: 'two', new_str: 'TWO' });
    const undone = await run({ command: 'undo_edit', path: 'a.txt' });
    expect(undone).toEqual({ content: 'Last edit to a.txt undone; a.txt restored.', isError: false });
    expect(await project.read('a.txt')).toBe('one\n');
    expect(await project.read('b.txt')).toBe('TWO\n');
    const again = await run({ command: 'undo_edit', path: 'a.txt' });
    expect(again).toEqual({ content: 'Error: No edit history found for a.txt.', isError: true });
    expect(await project.read('b.txt')).toBe('TWO\n');
  });

  it('view honours view_range and cuts a long file at max_characters with a note', async () => {
    await project.write('long.txt', Array.from({ length: 2000 }, (_, i) => `row ${i + 1}`).join('\n'));
    const cut = await run({ command: 'view', path: 'long.txt' }, { maxCharacters: 500 });
    expect(cut.isError).toBe(false);
    expect(cut.content).toMatch(
      /\[truncated at 500 characters: showing lines 1-\d+ of 2000; use view_range \[\d+, -1\] to see more\]\n$/,
    );
    const range = await run(
      { command: 'view', path: 'long.txt', view_range: [1999, -1] },
      { maxCharacters: 500 },
    );
    expect(range.content).toBe(
      "Here's the result of running `cat -n` on long.txt:\n  1999\trow 1999\n  2000\trow 2000\n",
    );
    expect(createTextEditorRunnableTool({ maxCharacters: 500 })).toMatchObject({ max_characters: 500 });
  });
});

describe('the Responses API apply_patch_call', () => {
  it('answers with the caller of the call', async () => {
    const caller = { type: 'program', call_id: 'prog_1' } as never;
    const output = await handleApplyPatchCall(
      { call_id: 'call_1', caller, operation: { type: 'delete_file', path: 'a.txt' } },
      { root: project.root, snapshot: false },
    );
    expect(output).toMatchObject({
      type: 'apply_patch_call_output',
      call_id: 'call_1',
      status: 'completed',
      caller,
    });
    const direct = await handleApplyPatchCall(
      { call_id: 'call_2', operation: { type: 'delete_file', path: 'b.txt' } },
      { root: project.root, snapshot: false },
    );
    expect('caller' in direct).toBe(false);
  });
});
