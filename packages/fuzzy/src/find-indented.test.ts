import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { indexFile } from './file-index.js';
import { findIndented, shiftAll } from './find-indented.js';
import { uniformShift } from './indent-shift.js';
import { locateChunk } from './locate-chunk.js';
import { chunk } from './test-support/chunk.js';

/** Few, alike lines, so that many windows are equal once trimmed and shifts clash often. */
const LINE = fc.constantFrom('}', '  }', '\t}', '    }', ' \t}', '', '  ', 'x', '  x', '\tx', '    x');

/** Every start of the region whose lines equal the block's once trimmed and have a uniform shift: the rule itself. */
function byRule(lines: string[], block: string[], from: number) {
  const starts: number[] = [];
  const shifts: unknown[] = [];
  for (let s = from; s + block.length <= lines.length; s++) {
    if (!block.every((line, j) => line.trim() === lines[s + j]!.trim())) continue;
    const shift = uniformShift(lines, block, s);
    if (shift) {
      starts.push(s);
      shifts.push(shift);
    }
  }
  return { starts, shifts };
}

describe('pass 3 (uniform indentation)', () => {
  test('the linear check finds exactly the starts and shifts the line-by-line rule finds', () => {
    fc.assert(
      fc.property(
        fc.array(LINE, { minLength: 1, maxLength: 40 }),
        fc.array(LINE, { minLength: 1, maxLength: 6 }),
        fc.nat(10),
        (lines, block, rawFrom) => {
          const from = Math.min(rawFrom, lines.length);
          const region = { from, to: lines.length, atEnd: false };
          const candidates: number[] = [];
          for (let s = from; s + block.length <= lines.length; s++) {
            if (block.every((line, j) => line.trim() === lines[s + j]!.trim())) candidates.push(s);
          }
          const want = byRule(lines, block, from);
          expect(shiftAll(lines, block, candidates, region)).toEqual(want);
          expect(findIndented(indexFile(lines), block, region)).toEqual(want);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  test('a block shifted in the middle of a long run of identical lines', () => {
    // Half the file is `}`, half `  }`: only windows inside the second half shift uniformly.
    const lines = [
      ...Array.from({ length: 5_000 }, () => '}'),
      ...Array.from({ length: 5_000 }, () => '  }'),
    ];
    const block = Array.from({ length: 50 }, () => '}');
    const region = { from: 0, to: lines.length, atEnd: false };
    const found = findIndented(indexFile(lines), block, region);
    expect(found.starts[0]).toBe(5_000);
    expect(found.starts).toHaveLength(5_000 - 50 + 1);
    expect(found.shifts.every((s) => s.prefix === '  ' && s.side === 'file')).toBe(true);
  });

  test('200,000 `}` lines and a 200-line block with a line hint: the hinted place, by pass 3', () => {
    const lines = Array.from({ length: 200_000 }, () => '}');
    const body = [...Array.from({ length: 199 }, () => '   }'), '-  }', '+  } // x'];
    const hint = { oldStart: 100_000, oldLines: 200, newStart: 100_000, newLines: 200 };
    const result = locateChunk(indexFile(lines), chunk(body, { hint }), { cursor: 0 });
    expect(result).toMatchObject({
      ok: true,
      start: 99_999,
      pass: 'indentation',
      indent: { prefix: '  ', side: 'patch' },
    });
  });
});

test('200,000 identical lines with a line hint: the hinted candidate, no stack overflow', () => {
  const lines = Array.from({ length: 200_000 }, () => '}');
  const hint = { oldStart: 123_457, oldLines: 2, newStart: 123_457, newLines: 2 };
  const result = locateChunk(indexFile(lines), chunk([' }', '-}', '+} // x'], { hint }), { cursor: 0 });
  expect(result).toMatchObject({ ok: true, start: 123_456, pass: 'exact' });
  const tie = locateChunk(indexFile(lines), chunk([' }', '-}', '+}!']), { cursor: 0 });
  expect(tie).toMatchObject({ ok: false, code: 'AMBIGUOUS' });
  expect(tie.ok ? [] : tie.candidates).toHaveLength(199_999);
});
