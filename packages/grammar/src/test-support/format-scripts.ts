/** Generated scripts that each printer can print, for the round-trip and streaming properties. */

import type { AddFile, Chunk, ChunkLine, EditScript, Operation, ReplaceText } from '@patchsmith/core';
import fc from 'fast-check';

const segment = fc.constantFrom(
  'a',
  'b',
  'src',
  'naïve',
  'with space',
  'q"uote',
  'tab\there',
  'x.ts',
  'back\\slash',
);
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

/** Line texts, with the ones that look like diff syntax over-represented. */
const lineText = fc.oneof(
  fc.constantFrom(
    '',
    '- ',
    '+ x',
    '@@ -1 +1 @@',
    '\\ No newline',
    'diff --git a b',
    '  indented',
    'trail  ',
    '*** End Patch',
  ),
  fc
    .string({ maxLength: 12 })
    .filter((t) => !/[\r\n]/.test(t) && !t.startsWith('-- ') && !t.startsWith('++ ')),
);

const chunkLine = fc.record({
  kind: fc.constantFrom('context', 'remove', 'add') as fc.Arbitrary<ChunkLine['kind']>,
  text: lineText,
  line: fc.constant(0),
});

const chunk: fc.Arbitrary<Chunk> = fc
  .record({
    lines: fc.array(chunkLine, { minLength: 1, maxLength: 6 }),
    hint: fc.option(fc.record({ oldStart: fc.nat(500), newStart: fc.nat(500) }), { nil: undefined }),
  })
  .map(({ lines, hint }) => {
    const c: Chunk = { anchors: [], lines, endOfFile: false, line: 0 };
    if (hint) {
      const oldLines = lines.filter((l) => l.kind !== 'add').length;
      const newLines = lines.filter((l) => l.kind !== 'remove').length;
      c.hint = { oldStart: hint.oldStart, oldLines, newStart: hint.newStart, newLines };
    }
    return c;
  });

const mode = fc.constantFrom(0o644, 0o755);

const update: fc.Arbitrary<Operation> = fc
  .record({
    path,
    move: fc.option(fc.record({ to: path, copy: fc.boolean() }), { nil: undefined }),
    chunks: fc.array(chunk, { maxLength: 3 }),
    mode: fc.option(mode, { nil: undefined }),
    finalNewline: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map(({ path, move, chunks, mode, finalNewline }) => {
    const op: Operation = { kind: 'update', path, chunks, line: 0 };
    if (move && move.to !== path) {
      op.movePath = move.to;
      if (move.copy) op.copy = true;
    }
    if (mode !== undefined) op.mode = mode;
    const last = chunks.at(-1);
    if (last !== undefined && finalNewline !== undefined) {
      // What each marker needs: a removed last old line, or a line of the new side.
      if (finalNewline) last.lines.push({ kind: 'remove', text: 'gone', line: 0 });
      else last.lines.push({ kind: 'add', text: 'last', line: 0 });
      if (last.hint) {
        last.hint.oldLines = last.lines.filter((l) => l.kind !== 'add').length;
        last.hint.newLines = last.lines.filter((l) => l.kind !== 'remove').length;
      }
      last.endOfFile = true;
      op.finalNewline = finalNewline;
    }
    return op;
  })
  // An update that changes nothing has no unified form.
  .filter(
    (op) =>
      op.kind !== 'update' || op.chunks.length > 0 || op.movePath !== undefined || op.mode !== undefined,
  );

const add: fc.Arbitrary<Operation> = fc
  .record({ path, lines: fc.array(lineText, { maxLength: 5 }), finalNewline: fc.boolean(), mode })
  .map(({ path, lines, finalNewline, mode }) => {
    const content = lines.length === 0 ? '' : lines.join('\n') + (finalNewline ? '\n' : '');
    const contentLines = content === '' ? [] : content.replace(/\n$/, '').split('\n');
    return { kind: 'add', path, lines: contentLines, content, line: 0, mode };
  });

/** A deletion, bare or with the hunk that removes every line (of a file ending with or without a newline). */
const del: fc.Arbitrary<Operation> = fc
  .record({ path, removed: fc.array(lineText, { maxLength: 4 }), noNewline: fc.boolean() })
  .map(({ path, removed, noNewline }): Operation => {
    if (removed.length === 0) return { kind: 'delete', path, line: 0 };
    const lines = removed.map((text): ChunkLine => ({ kind: 'remove', text, line: 0 }));
    const hint = { oldStart: 1, oldLines: lines.length, newStart: 0, newLines: 0 };
    const chunk: Chunk = { anchors: [], lines, endOfFile: noNewline, line: 0, hint };
    return { kind: 'delete', path, line: 0, chunks: [chunk], ...(noNewline ? { oldNoNewline: 0 } : {}) };
  });

export const unifiedScript: fc.Arbitrary<EditScript> = fc
  .array(fc.oneof(update, add, del), { minLength: 1, maxLength: 4 })
  .map((operations) => ({ format: 'unified', operations }));

// Four words or more read as a sentence, not as a path line.
const blockPath = path.filter((p) => !/^(\*|`)|(\*|`|:)$/.test(p) && p.split(/\s+/).length < 4);
/** Marker lines among the text, which the printer escapes. */
const markerLine = fc.constantFrom(
  '=======',
  '<<<<<<< SEARCH',
  '>>>>>>> REPLACE',
  '------- SEARCH',
  '-------',
  '  =====',
);
const srLines = fc
  .array(fc.oneof({ arbitrary: lineText, weight: 5 }, { arbitrary: markerLine, weight: 1 }), { maxLength: 4 })
  .filter((lines) => lines.every((l) => !/^\\|^[ \t]*:(start|end)_line:/.test(l)));
const srText = srLines.map((lines) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`));
/** A SEARCH the reader takes as itself: not blank lines only, not numbered on every line. */
const searchText = srText.filter(
  (t) =>
    t === '' ||
    (!/^[ \t\n]*$/.test(t) &&
      !t
        .slice(0, -1)
        .split('\n')
        .every((l) => /^[ \t]*\d+[ \t]*\|(?!\|)/.test(l))),
);

export const searchReplaceScript: fc.Arbitrary<EditScript> = fc
  .array(
    fc
      .record({
        path: blockPath,
        search: searchText,
        replace: srText,
        startLine: fc.option(fc.integer({ min: 1, max: 9999 })),
      })
      .map(
        ({ path, search, replace, startLine }): ReplaceText => ({
          kind: 'replace',
          path,
          search,
          replace,
          all: false,
          wholeLines: true,
          line: 0,
          ...(startLine !== null && { startLine }),
        }),
      ),
    { minLength: 1, maxLength: 4 },
  )
  .map((operations) => ({ format: 'search-replace', operations }));

const wholeFileLine = fc.oneof(
  fc.constantFrom(
    '',
    '```',
    '````python',
    '~~~',
    '</source>',
    '<<<<<<< SEARCH',
    '  indented',
    'a.py',
    '# x.py',
  ),
  fc.string({ maxLength: 12 }).filter((t) => !/[\r\n]/.test(t)),
);
const wholeFileSegment = fc.constantFrom('a', 'src', 'b.py', 'naïve', 'with space', '.env');
// Four words or more read as a sentence, not as a path line.
const wholeFilePath = fc
  .array(wholeFileSegment, { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join('/'))
  .filter((p) => p.split(/\s+/).length < 4);

export const wholeFileScript: fc.Arbitrary<EditScript> = fc
  .array(
    fc.record({ path: wholeFilePath, lines: fc.array(wholeFileLine, { maxLength: 5 }) }).map(
      ({ path, lines }): AddFile => ({
        kind: 'add',
        path,
        lines,
        content: lines.length === 0 ? '' : `${lines.join('\n')}\n`,
        line: 0,
      }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((operations) => ({ format: 'whole-file', operations }));
