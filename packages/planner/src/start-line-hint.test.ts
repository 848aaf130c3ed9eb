/**
 * Roo Code's `:start_line:` (and the line its `N | ` prefixes give) as SPEC §2's line hint for
 * SEARCH/REPLACE blocks: among equal candidates of the deciding pass the strictly nearest wins;
 * a unique match and an exact match elsewhere are never moved by it. Roo counts the hint in the
 * file before the reply and shifts it by what its earlier blocks added or removed; so do we.
 */
import { parseEdits } from '@patchsmith/grammar';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { file, files, ROOT } from './test-support/script.js';

const decoder = new TextDecoder();
const text = (...lines: string[]) => `${lines.join('\n')}\n`;

/** One Roo block for `a.ts`, with its `:start_line:` when given. */
const block = (search: string[], replace: string[], startLine?: number) => [
  '<<<<<<< SEARCH',
  ...(startLine === undefined ? [] : [`:start_line:${startLine}`, '-------']),
  ...search,
  '=======',
  ...replace,
  '>>>>>>> REPLACE',
];

function run(content: string, ...blocks: string[][]) {
  const parsed = parseEdits(text('a.ts', ...blocks.flat()), 'search-replace');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return planEdits(parsed.value, files({ 'a.ts': file(content) }), { root: ROOT });
}

function result(content: string, ...blocks: string[][]): string {
  const planned = run(content, ...blocks);
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
  return decoder.decode(planned.plan.writes[0]!.after!.bytes);
}

const twice = text('a', 'x();', 'b', 'c', 'd', 'x();');

describe('SEARCH/REPLACE :start_line: breaks ties (SPEC §2)', () => {
  it('picks the occurrence nearest to the hint among equal ones', () => {
    const second = text('a', 'x();', 'b', 'c', 'd', 'y();');
    expect(result(twice, block(['x();'], ['y();'], 6))).toBe(second);
    expect(result(twice, block(['x();'], ['y();'], 2))).toBe(text('a', 'y();', 'b', 'c', 'd', 'x();'));
    // Roo's hint is approximate: a line off still names the nearer one.
    expect(result(twice, block(['x();'], ['y();'], 5))).toBe(second);
  });

  it('without a hint, or with one halfway between, the block is AMBIGUOUS listing both lines', () => {
    for (const hint of [undefined, 4]) {
      const planned = run(twice, block(['x();'], ['y();'], hint));
      expect(planned.ok).toBe(false);
      if (!planned.ok) expect(planned.errors[0]).toMatchObject({ code: 'AMBIGUOUS', candidates: [2, 6] });
    }
  });

  it('never moves a unique match, however far the hint', () => {
    expect(result(text('a', 'x();', 'b'), block(['x();'], ['y();'], 40))).toBe(text('a', 'y();', 'b'));
  });

  it('an exact match elsewhere wins over a whitespace-tolerant one at the hint (the first pass decides)', () => {
    const content = text('  x();', 'a', 'b', 'x();');
    expect(result(content, block(['x();'], ['y();'], 1))).toBe(text('  x();', 'a', 'b', 'y();'));
  });

  it('counts lines of the file before the reply: shifted by what earlier blocks added or removed', () => {
    const content = text('top', 'x();', 'b', 'x();', 'end');
    const grow = block(['top'], ['top', 'n1', 'n2', 'n3'], 1);
    // Line 4 of the original is the second x(); the first block moved it to line 7.
    expect(result(content, grow, block(['x();'], ['y();'], 4))).toBe(
      text('top', 'n1', 'n2', 'n3', 'x();', 'b', 'y();', 'end'),
    );
    const shrink = block(['top', 'x();', 'b'], ['t'], 1);
    const content2 = text('top', 'x();', 'b', 'x();', 'm', 'x();');
    // Line 4 of the original (the middle x();) is line 2 once three lines became one.
    expect(result(content2, shrink, block(['x();'], ['y();'], 4))).toBe(text('t', 'y();', 'm', 'x();'));
  });

  it("the line numbers of Roo's `N | ` prefixes are a hint too", () => {
    expect(result(twice, block(['6 | x();'], ['y();']))).toBe(text('a', 'x();', 'b', 'c', 'd', 'y();'));
  });

  it('law: with copies of a line at distinct places, a hint on one copy edits exactly that copy', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { minLength: 2, maxLength: 6 }),
        (places) => {
          const lines = Array.from({ length: 31 }, (_, i) => (places.includes(i) ? 'x();' : `line ${i}`));
          const target = places[0]!;
          const out = result(text(...lines), block(['x();'], ['y();'], target + 1));
          const expected = lines.map((l, i) => (i === target ? 'y();' : l));
          expect(out).toBe(text(...expected));
        },
      ),
      { numRuns: 60 },
    );
  });
});
