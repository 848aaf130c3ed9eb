import { type Chunk, type EditScript, type Operation, PatchsmithError } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';
import { printPatch } from './print-patch.js';

const chunk = (over: Partial<Chunk> = {}): Chunk => ({
  anchors: [],
  lines: [{ kind: 'remove', text: 'x', line: 0 }],
  endOfFile: false,
  line: 0,
  ...over,
});
const script = (...operations: Operation[]): EditScript => ({ format: 'codex', operations });

describe('printPatch', () => {
  it('prints the canonical form', () => {
    const text = printPatch(
      script(
        { kind: 'add', path: 'new.txt', lines: ['a', ''], line: 0 },
        { kind: 'delete', path: 'gone.txt', line: 0 },
        {
          kind: 'update',
          path: 'src/app.ts',
          movePath: 'lib/app.ts',
          chunks: [
            chunk(),
            chunk({
              anchors: [
                { text: 'class A {', line: 0 },
                { text: 'f() {', line: 0 },
              ],
              hint: { oldStart: 12, oldLines: 3, newStart: 12, newLines: 4 },
              lines: [
                { kind: 'context', text: '', line: 0 },
                { kind: 'remove', text: '  old();', line: 0 },
                { kind: 'add', text: '  new();', line: 0 },
              ],
              endOfFile: true,
            }),
            chunk({ hint: { oldStart: 40, newStart: 41 } }),
          ],
          line: 0,
        },
        { kind: 'update', path: 'a', movePath: 'b', chunks: [], line: 0 },
      ),
    );
    expect(text).toBe(
      [
        '*** Begin Patch',
        '*** Add File: new.txt',
        '+a',
        '+',
        '*** Delete File: gone.txt',
        '*** Update File: src/app.ts',
        '*** Move to: lib/app.ts',
        '@@',
        '-x',
        '@@ -12,3 +12,4 @@ class A {',
        '@@ f() {',
        ' ',
        '-  old();',
        '+  new();',
        '*** End of File',
        '@@ -40 +41 @@',
        '-x',
        '*** Update File: a',
        '*** Move to: b',
        '*** End Patch',
        '',
      ].join('\n'),
    );
  });

  it('prints a script of another format in Codex form, which parses back', () => {
    const unified = { ...script({ kind: 'delete', path: 'a', line: 7 }), format: 'unified' as const };
    const back = parsePatch(printPatch(unified));
    expect(back).toStrictEqual({ ok: true, value: script({ kind: 'delete', path: 'a', line: 2 }) });
  });

  it.each<[string, EditScript, RegExp]>([
    ['no operation', script(), /no operation/],
    ['an empty path', script({ kind: 'delete', path: '', line: 0 }), /path ""/],
    ['a padded path', script({ kind: 'delete', path: ' a', line: 0 }), /padded/],
    ['a path with a newline', script({ kind: 'delete', path: 'a\nb', line: 0 }), /line break/],
    [
      'a padded move path',
      script({ kind: 'update', path: 'a', movePath: 'b ', chunks: [], line: 0 }),
      /move path/,
    ],
    [
      'an Update with neither chunk nor move',
      script({ kind: 'update', path: 'a', chunks: [], line: 0 }),
      /chunk or a move/,
    ],
    [
      'an added line with a newline',
      script({ kind: 'add', path: 'a', lines: ['x\ny'], line: 0 }),
      /line 1 of the added file/,
    ],
    [
      'an added line ending with \\r',
      script({ kind: 'add', path: 'a', lines: ['ok', 'x\r'], line: 0 }),
      /line 2/,
    ],
    [
      'a chunk with no line',
      script({ kind: 'update', path: 'a', chunks: [chunk({ lines: [] })], line: 0 }),
      /at least one line/,
    ],
    [
      'a padded anchor',
      script({ kind: 'update', path: 'a', chunks: [chunk({ anchors: [{ text: ' f', line: 0 }] })], line: 0 }),
      /anchor " f"/,
    ],
    [
      'an anchor that reads as a line hint',
      script({
        kind: 'update',
        path: 'a',
        chunks: [chunk({ anchors: [{ text: '-1 +1 @@', line: 0 }] })],
        line: 0,
      }),
      /line hint/,
    ],
    [
      'a context line that reads as a marker',
      script({
        kind: 'update',
        path: 'a',
        chunks: [chunk({ lines: [{ kind: 'context', text: ' *** End Patch', line: 0 }] })],
        line: 0,
      }),
      /patch marker/,
    ],
    [
      'a fractional hint',
      script({
        kind: 'update',
        path: 'a',
        chunks: [chunk({ hint: { oldStart: 1.5, newStart: 1 } })],
        line: 0,
      }),
      /hint/,
    ],
    [
      'a 16-digit hint',
      script({
        kind: 'update',
        path: 'a',
        chunks: [chunk({ hint: { oldStart: 1e15, newStart: 1 } })],
        line: 0,
      }),
      /hint/,
    ],
  ])('refuses what would not parse back: %s', (_name, s, reason) => {
    let thrown: unknown;
    try {
      printPatch(s);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PatchsmithError);
    expect((thrown as PatchsmithError).code).toBe('INVALID_EDIT');
    expect((thrown as PatchsmithError).message).toMatch(reason);
  });

  it('prints what a removed or added line holds even when it looks like syntax', () => {
    const s = script({
      kind: 'update',
      path: 'a',
      chunks: [
        chunk({
          lines: [
            { kind: 'remove', text: '** End Patch', line: 0 },
            { kind: 'add', text: '*** End Patch', line: 0 },
            { kind: 'context', text: '*** Add File: x', line: 0 },
          ],
        }),
      ],
      line: 0,
    });
    const back = parsePatch(printPatch(s));
    expect(back.ok && back.value.operations[0]).toMatchObject({
      chunks: [
        {
          lines:
            s.operations[0]!.kind === 'update'
              ? s.operations[0]!.chunks[0]!.lines.map(({ kind, text }) => ({ kind, text }))
              : [],
        },
      ],
    });
  });
});
