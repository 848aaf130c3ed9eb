/** The laws between printPatch and parsePatch, over generated scripts (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';
import { printPatch } from './print-patch.js';
import {
  addNoise,
  expectedLineTexts,
  noise,
  printableScript,
  withoutLines,
} from './test-support/arbitraries.js';

describe('printPatch / parsePatch', () => {
  it('parsePatch(printPatch(s)) is s, every line number pointing at its line of the printed text', () => {
    fc.assert(
      fc.property(printableScript, (script) => {
        const text = printPatch(script);
        const parsed = parsePatch(text);
        if (!parsed.ok) throw new Error(`${parsed.errors[0]?.message}\n${text}`);
        expect(withoutLines(parsed.value)).toStrictEqual(withoutLines(script));
        const printed = text.split('\n');
        let previous = 0;
        for (const node of expectedLineTexts(parsed.value)) {
          expect(node.line, node.what).toBeGreaterThanOrEqual(previous);
          expect(node.matches(printed[node.line - 1] ?? ''), `${node.what} at line ${node.line}`).toBe(true);
          previous = node.line;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('printing is canonical: print(parse(print(s))) is print(s)', () => {
    fc.assert(
      fc.property(printableScript, (script) => {
        const text = printPatch(script);
        const parsed = parsePatch(text);
        expect(parsed.ok && printPatch(parsed.value)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('the noise models add (padding, blank lines, wrappers, CRLF, no first @@, @@anchor) changes nothing', () => {
    fc.assert(
      fc.property(printableScript, noise, (script, n) => {
        const noisy = addNoise(printPatch(script), script, n);
        const parsed = parsePatch(noisy);
        if (!parsed.ok) throw new Error(`${parsed.errors[0]?.message}\n${JSON.stringify(noisy)}`);
        expect(withoutLines(parsed.value)).toStrictEqual(withoutLines(script));
      }),
      { numRuns: 300 },
    );
  });
});
