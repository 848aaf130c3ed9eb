import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileStrReplace } from './compile-str-replace.js';
import { detectFormat } from './detect-format.js';
import { parseEdits } from './parse-edits.js';

describe('detectFormat', () => {
  it.each([
    ['a Codex patch', '*** Begin Patch\n*** Delete File: x\n*** End Patch\n', 'codex'],
    ['a Codex patch in a heredoc', "apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF\n", 'codex'],
    ['a git diff', 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', 'unified'],
    ['a diff -u after prose', 'Here:\n--- x.orig\n+++ x\n@@ -1 +1 @@\n-a\n+b\n', 'unified'],
    ['Aider blocks', 'x.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n', 'search-replace'],
    ['Cline blocks', 'x.py\n------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n', 'search-replace'],
    ['one str_replace object', '{"command":"create","path":"x","file_text":""}', 'str_replace'],
    ['an array of them', ' [{"command":"insert","path":"x","insert_line":0,"new_str":"a"}]\n', 'str_replace'],
    [
      'a block whose text holds diff lines',
      'f\n<<<<<<< SEARCH\n--- a\n+++ b\n=======\n>>>>>>> REPLACE\n',
      'search-replace',
    ],
    ['a diff -u after a BOM', '\ufeff--- x\n+++ x\n@@ -1 +1 @@\n-a\n+b\n', 'unified'],
    ['undecidable text (read as Codex, whose parser says what it expected)', 'hello\n', 'codex'],
    ['JSON that is not an edit', '{"a": 1}', 'codex'],
    ['a Codex patch without Begin Patch', '*** Update File: x\n@@\n-a\n+b\n', 'codex'],
    ['a whole file after its path', 'Here it is:\n\nsrc/app.py\n```python\nprint(1)\n```\n', 'whole-file'],
    ['a whole file named in the fence', '```python src/app.py\nprint(1)\n```\n', 'whole-file'],
    ['a code block under no file name', 'Run this:\n```\nnpm test\n```\n', 'codex'],
    ['Claude Code Edit arguments', '{"file_path":"x","old_string":"a","new_string":"b"}', 'str_replace'],
  ])('detects %s', (_what, text, format) => {
    expect(detectFormat(text)).toBe(format);
  });
});

describe('detectFormat, line scan', () => {
  // The former implementation, kept as the oracle: split the whole text, then test line by line.
  const splitDetect = (text: string): string => {
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (/^[ \t]*\*\*\* Begin Patch[ \t]*$/.test(line)) return 'codex';
      if (/^[ \t]*\*\*\* (?:Add|Update|Delete) File: /.test(line)) return 'codex';
      if (/^[ \t]*(?:<{5,9}|-{3,})[ \t]*SEARCH>?[ \t]*$/.test(line)) return 'search-replace';
      if (/^diff --git /.test(line)) return 'unified';
      if (/^--- \S/.test(line) && /^\+\+\+ \S/.test(lines[i + 1] ?? '')) return 'unified';
    }
    return 'codex';
  };

  it('property: decides as splitting the whole text did, on random lines and endings', () => {
    const piece = fc.constantFrom(
      '*** Begin Patch',
      ' *** Begin Patch \t',
      '*** Update File: a',
      '<<<<<<< SEARCH',
      '------- SEARCH',
      'diff --git a/x b/x',
      '--- a/x',
      '+++ b/x',
      '+++',
      '---',
      'text',
      '',
      '\r',
    );
    const ending = fc.constantFrom('\n', '\r\n', '\r', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, ending), { maxLength: 12 }), (parts) => {
        const text = parts.map(([line, end]) => line + end).join('');
        expect(detectFormat(text)).toBe(splitDetect(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('compileStrReplace', () => {
  it('compiles the three commands, each op pointing at its position', () => {
    const r = compileStrReplace([
      { command: 'str_replace', path: 'a', old_str: 'x', new_str: '$&$$' },
      { command: 'str_replace', path: 'a', old_str: 'y', replace_all: true },
      { command: 'create', path: 'b', file_text: 'no newline' },
      { command: 'insert', path: 'a', insert_line: 0, new_str: 'top\n' },
    ]);
    expect(r).toStrictEqual({
      ok: true,
      value: {
        format: 'str_replace',
        operations: [
          {
            kind: 'replace',
            path: 'a',
            search: 'x',
            replace: '$&$$',
            all: false,
            wholeLines: false,
            line: 1,
          },
          { kind: 'replace', path: 'a', search: 'y', replace: '', all: true, wholeLines: false, line: 2 },
          { kind: 'add', path: 'b', lines: ['no newline'], content: 'no newline', line: 3 },
          { kind: 'insert', path: 'a', after: 0, text: 'top\n', line: 4 },
        ],
      },
    });
  });

  it.each([
    [
      'old_str equal to new_str',
      { command: 'str_replace', path: 'a', old_str: 'x', new_str: 'x' },
      /the same/,
    ],
    ['a missing old_str', { command: 'str_replace', path: 'a', new_str: 'x' }, /needs "old_str"/],
    [
      'a negative insert_line',
      { command: 'insert', path: 'a', insert_line: -1, new_str: 'x' },
      /insert_line/,
    ],
    [
      'a fractional insert_line',
      { command: 'insert', path: 'a', insert_line: 1.5, new_str: 'x' },
      /insert_line/,
    ],
    ['create without file_text', { command: 'create', path: 'a' }, /file_text/],
    ['view', { command: 'view', path: 'a' }, /not an edit/],
    ['an unknown command', { command: 'rm', path: 'a' }, /unknown command/],
    ['no path', { command: 'create', file_text: '' }, /path/],
    ['not an object', 'str_replace', /object/],
  ])('refuses %s with INVALID_EDIT', (_what, command, message) => {
    const r = compileStrReplace([command]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ code: 'INVALID_EDIT', line: 1 });
    expect(r.errors[0]!.message).toMatch(message);
  });

  it('reports every bad command together', () => {
    const r = compileStrReplace([
      { command: 'view', path: 'a' },
      { command: 'create', path: 'b', file_text: '' },
      {},
    ]);
    expect(r.ok ? [] : r.errors.map((e) => e.line)).toStrictEqual([1, 3]);
  });
});

describe('parseEdits', () => {
  it('dispatches on the detected or given format', () => {
    const unified = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
    expect(parseEdits(unified)).toMatchObject({ ok: true, value: { format: 'unified' } });
    expect(parseEdits(unified, 'codex')).toMatchObject({ ok: false, errors: [{ code: 'PARSE_ERROR' }] });
    expect(parseEdits('[{"command":"create","path":"x","file_text":"y"}]', 'str_replace')).toMatchObject({
      ok: true,
      value: { format: 'str_replace' },
    });
  });

  it('str_replace input that is not JSON is a PARSE_ERROR', () => {
    expect(parseEdits('{nope', 'str_replace')).toMatchObject({
      ok: false,
      errors: [{ code: 'PARSE_ERROR' }],
    });
  });
});
