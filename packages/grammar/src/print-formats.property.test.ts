/** Round trips of the unified and SEARCH/REPLACE printers with their parsers, over generated scripts. */

import { type EditScript, PatchsmithError } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSearchReplace } from './parse-search-replace.js';
import { parseUnified } from './parse-unified.js';
import { printSearchReplace } from './print-search-replace.js';
import { printUnified } from './print-unified.js';
import { searchReplaceScript, unifiedScript } from './test-support/format-scripts.js';

/**
 * The script without its line fields (they point into whichever text was parsed): `line`, and
 * `oldNoNewline`, the line of a marker the printer writes wherever a final-newline change needs one.
 */
function withoutLines(script: EditScript): unknown {
  const isLineField = (key: string) => key === 'line' || key === 'oldNoNewline';
  return JSON.parse(JSON.stringify(script, (key, value) => (isLineField(key) ? undefined : value)));
}

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
        operations: [
          { kind: 'replace', path: 'x', search, replace: '', all: false, wholeLines: true, line: 1 },
        ],
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
