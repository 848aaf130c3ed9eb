/** Round trips of the unified and SEARCH/REPLACE printers with their parsers, over generated scripts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Chunk,
  type ChunkLine,
  type EditScript,
  type Operation,
  PatchsmithError,
  type ReplaceText,
} from '@patchsmith/core';
import { parseSearchReplace } from './parse-search-replace.js';
import { parseUnified } from './parse-unified.js';
import { printSearchReplace } from './print-search-replace.js';
import { printUnified } from './print-unified.js';

/**
 * The script without its line fields (they point into whichever text was parsed): `line`, and
 * `oldNoNewline`, the line of a marker the printer writes wherever a final-newline change needs one.
 */
function withoutLines(script: EditScript): unknown {
  const isLineField = (key: string) => key === 'line' || key === 'oldNoNewline';
  return JSON.parse(JSON.stringify(script, (key, value) => (isLineField(key) ? undefined : value)));
}

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

const unifiedScript: fc.Arbitrary<EditScript> = fc
  .array(fc.oneof(update, add, del), { minLength: 1, maxLength: 4 })
  .map((operations) => ({ format: 'unified', operations }));

describe('printUnified / parseUnified', () => {
  it('parseUnified(printUnified(s)) is s', () => {
    fc.assert(
      fc.property(unifiedScript, (script) => {
        const text = printUnified(script);
        const parsed = parseUnified(text);
        if (!parsed.ok) throw new Error(`${parsed.errors[0]?.message}\n${text}`);
        expect(withoutLines(parsed.value)).toStrictEqual(withoutLines(script));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what a unified diff cannot say', () => {
    const anchored: EditScript = {
      format: 'codex',
      operations: [
        {
          kind: 'update',
          path: 'x',
          chunks: [
            {
              anchors: [{ text: 'fn', line: 1 }],
              lines: [{ kind: 'add', text: 'y', line: 2 }],
              endOfFile: false,
              line: 1,
            },
          ],
          line: 1,
        },
      ],
    };
    expect(() => printUnified(anchored)).toThrow(PatchsmithError);
    const replace: EditScript = {
      format: 'str_replace',
      operations: [
        { kind: 'replace', path: 'x', search: 'a', replace: 'b', all: false, wholeLines: false, line: 1 },
      ],
    };
    expect(() => printUnified(replace)).toThrow(/no unified form/);
  });
});

const blockText = fc
  .array(lineText, { maxLength: 4 })
  .map((lines) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`));
// Four words or more read as a sentence, not as a path line.
const blockPath = path.filter((p) => !/^(\*|`)|(\*|`|:)$/.test(p) && p.split(/\s+/).length < 4);
/** Marker lines among the text, which the printer escapes. */
const markerLine = fc.constantFrom('=======', '<<<<<<< SEARCH', '>>>>>>> REPLACE', '------- SEARCH', '-------', '  =====');
const srLines = fc
  .array(fc.oneof({ arbitrary: lineText, weight: 5 }, { arbitrary: markerLine, weight: 1 }), { maxLength: 4 })
  .filter((lines) => lines.every((l) => !/^\\|^[ \t]*:(start|end)_line:/.test(l)));
const srText = srLines.map((lines) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`));
/** A SEARCH the reader takes as itself: not blank lines only, not numbered on every line. */
const searchText = srText.filter(
  (t) => t === '' || (!/^[ \t\n]*$/.test(t) && !t.slice(0, -1).split('\n').every((l) => /^[ \t]*\d+[ \t]*\|(?!\|)/.test(l))),
);

const searchReplaceScript: fc.Arbitrary<EditScript> = fc
  .array(
    fc
      .record({ path: blockPath, search: searchText, replace: srText, startLine: fc.option(fc.integer({ min: 1, max: 9999 })) })
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

describe('printSearchReplace / parseSearchReplace', () => {
  it('parseSearchReplace(printSearchReplace(s)) is s, every line pointing at its block', () => {
    fc.assert(
      fc.property(searchReplaceScript, (script) => {
        const text = printSearchReplace(script);
        const parsed = parseSearchReplace(text);
        if (!parsed.ok) throw new Error(`${parsed.errors[0]?.message}\n${text}`);
        expect(withoutLines(parsed.value)).toStrictEqual(withoutLines(script));
        const printed = text.split('\n');
        for (const op of parsed.value.operations) expect(printed[op.line - 1]).toBe(op.path);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses lines the reader would un-escape or read as a header, and operations other than whole-line replaces', () => {
    for (const search of ['\\=======\n', ':start_line:3\n', '\n\n', '1 | a\n2 | b\n']) {
      const script: EditScript = {
        format: 'search-replace',
        operations: [{ kind: 'replace', path: 'x', search, replace: '', all: false, wholeLines: true, line: 1 }],
      };
      expect(() => printSearchReplace(script)).toThrow(PatchsmithError);
    }
    const all: EditScript = {
      format: 'str_replace',
      operations: [
        { kind: 'replace', path: 'x', search: 'a\n', replace: '', all: true, wholeLines: true, line: 1 },
      ],
    };
    expect(() => printSearchReplace(all)).toThrow(PatchsmithError);
  });
});
