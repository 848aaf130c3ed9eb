/**
 * Malformed input never throws: parsePatch answers a script, or one PARSE_ERROR / EMPTY_PATCH
 * that names a line of the input (or the line just after it) and what was expected there.
 */

import type { EditScript, Result } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';
import { printPatch } from './print-patch.js';
import { printableScript } from './test-support/arbitraries.js';

function lineCount(text: string): number {
  return text.split('\n').length;
}

/** The result is a well-formed answer about `text`. */
function expectWellFormed(result: Result<EditScript>, text: string): void {
  if (result.ok) {
    expect(result.value.format).toBe('codex');
    expect(result.value.operations.length).toBeGreaterThan(0);
    return;
  }
  expect(result.errors).toHaveLength(1);
  const [e] = result.errors;
  expect(['PARSE_ERROR', 'EMPTY_PATCH']).toContain(e!.code);
  expect(Number.isInteger(e!.line)).toBe(true);
  expect(e!.line).toBeGreaterThanOrEqual(1);
  expect(e!.line).toBeLessThanOrEqual(lineCount(text) + 1);
  expect(e!.expected).toMatch(/\S/);
  expect(e!.message.startsWith(`line ${e!.line}: `)).toBe(true);
}

const RICH = [
  '```diff',
  "apply_patch <<'EOF'",
  ' *** Begin Patch',
  '*** Add File: a.txt',
  '+hello',
  '+',
  '*** Delete File: b.txt',
  '',
  '*** Update File: c.txt',
  '*** Move to: d.txt',
  '@@ -1,3 +1,3 @@ class A',
  '@@ def f',
  ' ctx',
  '-old',
  '+new',
  '',
  '@@',
  '-x',
  '*** End of File',
  '*** Update File: e.txt',
  ' first',
  '-second',
  '*** End Patch ',
  'EOF',
  '```',
  '',
].join('\n');

const STRAY_LINES = [
  '*** Begin Patch',
  '*** End Patch',
  ' *** End Patch',
  '*** End of File',
  '*** Add File: x',
  '*** Add File:',
  '  *** Update File: y',
  '*** Delete File: z',
  '*** Move to: w',
  '*** Frobnicate File: q',
  '@@',
  '@@ anchor',
  '@@ -1,2 +3,4 @@',
  '',
  '\t',
  '+',
  '-',
  ' ',
  'EOF',
  '```',
  'garbage',
  '\r',
];

describe('fuzz: malformed patches never throw', () => {
  it('the rich patch parses, and every truncation of it is a well-formed answer', () => {
    expect(parsePatch(RICH).ok).toBe(true);
    for (let cut = 0; cut <= RICH.length; cut++) {
      const text = RICH.slice(0, cut);
      expectWellFormed(parsePatch(text), text);
    }
  });

  it('truncations of generated patches at any point', () => {
    fc.assert(
      fc.property(printableScript, fc.double({ min: 0, max: 1, noNaN: true }), (script, at) => {
        const full = printPatch(script);
        const text = full.slice(0, Math.floor(at * full.length));
        expectWellFormed(parsePatch(text), text);
      }),
      { numRuns: 200 },
    );
  });

  it('random text: any UTF-16 units, any bytes as latin1, printable ASCII', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
          fc.string({ maxLength: 300 }),
        ),
        (text) => expectWellFormed(parsePatch(text), text),
      ),
      { numRuns: 300 },
    );
  });

  it('stray markers, headers and blank lines inserted at random lines', () => {
    fc.assert(
      fc.property(
        printableScript,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...STRAY_LINES)), { minLength: 1, maxLength: 4 }),
        (script, strays) => {
          const lines = printPatch(script).split('\n');
          for (const [at, stray] of strays) lines.splice(at % (lines.length + 1), 0, stray);
          const text = lines.join('\n');
          expectWellFormed(parsePatch(text), text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line that fits nowhere is reported at exactly its line, wherever it is inserted', () => {
    fc.assert(
      fc.property(
        printableScript,
        fc.nat(),
        fc.constantFrom('%garbage', '#x', '<<<<<<< SEARCH', '*** Frobnicate File: q'),
        (script, at, junk) => {
          const lines = printPatch(script).split('\n');
          lines.pop();
          const index = at % (lines.length + 1);
          lines.splice(index, 0, junk);
          const result = parsePatch(`${lines.join('\n')}\n`);
          expect(result.ok).toBe(false);
          if (!result.ok)
            expect([result.errors[0]!.code, result.errors[0]!.line]).toStrictEqual([
              'PARSE_ERROR',
              index + 1,
            ]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
