import { describe, expect, it } from 'vitest';
import { compileStrReplace } from './compile-str-replace.js';

function compiled(command: unknown) {
  const r = compileStrReplace([command]);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.operations[0];
}

function refusal(command: unknown): string {
  const r = compileStrReplace([command]);
  if (r.ok) throw new Error('expected a refusal');
  expect(r.errors[0]!.code).toBe('INVALID_EDIT');
  return r.errors[0]!.message;
}

describe('str_replace argument aliases', () => {
  const canonical = {
    kind: 'replace',
    path: 'a.ts',
    search: 'x',
    replace: 'y',
    all: true,
    wholeLines: false,
    line: 1,
  };

  it.each([
    ['Anthropic', { command: 'str_replace', path: 'a.ts', old_str: 'x', new_str: 'y', replace_all: true }],
    [
      'Claude Code Edit (no command)',
      { file_path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true },
    ],
    ['OpenCode edit (camelCase)', { filePath: 'a.ts', oldString: 'x', newString: 'y', replaceAll: true }],
    ['mixed', { command: 'str_replace', file_path: 'a.ts', old_str: 'x', newString: 'y', replaceAll: true }],
  ])('%s compiles to the same operation', (_who, command) => {
    expect(compiled(command)).toStrictEqual(canonical);
  });

  it('insert takes "line" and create takes "content"; a Write-style call without command is a create', () => {
    expect(compiled({ command: 'insert', file_path: 'a', line: 2, new_string: 'z' })).toMatchObject({
      kind: 'insert',
      after: 2,
      text: 'z',
    });
    expect(compiled({ file_path: 'n.txt', content: 'hi\n' })).toMatchObject({
      kind: 'add',
      path: 'n.txt',
      content: 'hi\n',
    });
  });

  it("an empty old_string is OpenCode's create, of a new file only", () => {
    expect(compiled({ file_path: 'n.txt', old_string: '', new_string: 'hi\n' })).toStrictEqual({
      kind: 'add',
      path: 'n.txt',
      lines: ['hi'],
      content: 'hi\n',
      line: 1,
      createOnly: true,
    });
  });

  it('names unknown fields and fields the command does not read', () => {
    expect(
      refusal({ command: 'str_replace', path: 'a', old_str: 'x', new_str: 'y', replace_everything: true }),
    ).toMatch(/unknown field "replace_everything"/);
    expect(refusal({ command: 'create', path: 'a', file_text: 'x', old_str: 'y' })).toMatch(
      /"old_str" is not read by "create"/,
    );
    expect(refusal({ path: 'a', old_str: 'x', oldString: 'z', new_str: 'y' })).toMatch(
      /"old_str" and "oldString"/,
    );
  });

  it('errors speak of the fields by the names the caller sent', () => {
    expect(refusal({ file_path: 'a', old_string: 5, new_string: 'x' })).toMatch(/needs "old_string"/);
    expect(refusal({ file_path: 'a', oldString: 'x', newString: 'x' })).toMatch(
      /"oldString" and "newString" are the same/,
    );
    expect(refusal({ file_path: 5, old_string: 'x' })).toMatch(/"file_path" must be/);
  });

  it('the error of a bad field still names the file', () => {
    const r = compileStrReplace([{ file_path: 'src/a.ts', old_string: 'x', bogus: 1 }]);
    expect(!r.ok && r.errors[0]).toMatchObject({ path: 'src/a.ts', line: 1 });
  });
});
