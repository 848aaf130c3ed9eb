import type { ChunkLine } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { indexFile } from './file-index.js';
import { locateChunk } from './locate-chunk.js';
import type { MatchPass, ReplacementLine } from './types.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'lambda', 'theta', 'zeta'];

/**
 * A code-like file whose non-blank lines are unique under every normalisation (each holds a unique
 * id) and indented by at least two spaces; blank lines are sprinkled in.
 */
const fileArb = fc
  .array(
    fc.record({
      blank: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
      depth: fc.integer({ min: 1, max: 3 }),
      w1: fc.constantFrom(...WORDS),
      w2: fc.constantFrom(...WORDS),
      n: fc.nat(9),
    }),
    { minLength: 8, maxLength: 60 },
  )
  .map((rows) =>
    rows.map((r, i) =>
      r.blank ? '' : `${'  '.repeat(r.depth)}${r.w1} u${((i + 1) * 7919).toString(36)}q ${r.w2}("v-${r.n}");`,
    ),
  );

/** A file and a block `[start, start+length)` of it holding at least one non-blank line. */
const fileAndBlock = fileArb
  .chain((lines) =>
    fc.record({
      lines: fc.constant(lines),
      start: fc.nat(lines.length - 1),
      length: fc.integer({ min: 1, max: 6 }),
    }),
  )
  .map(({ lines, start, length }) => ({ lines, start, length: Math.min(length, lines.length - start) }))
  .filter(({ lines, start, length }) => lines.slice(start, start + length).some((l) => l !== ''));

type Perturbation = 'none' | 'trailing' | 'indent-patch' | 'indent-file' | 'uneven' | 'lookalike';

const EXPECTED_PASS: Record<Perturbation, MatchPass> = {
  none: 'exact',
  trailing: 'trailing-whitespace',
  'indent-patch': 'indentation',
  'indent-file': 'indentation',
  uneven: 'trimmed',
  lookalike: 'lookalike',
};

/** How a model's copy of the lines drifted, and what a choice of lines it applies to. */
const driftArb = fc.record({
  kind: fc.constantFrom<Perturbation>(
    'none',
    'trailing',
    'indent-patch',
    'indent-file',
    'uneven',
    'lookalike',
  ),
  prefix: fc.constantFrom(' ', '  ', '\t'),
  picks: fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }),
});
type Drift = typeof driftArb extends fc.Arbitrary<infer T> ? T : never;

/** The model's copy of old lines, drifted so that exactly the expected pass is the first to match. */
function driftOld(lines: readonly string[], drift: Drift): string[] {
  const nonBlank = lines.map((l, i) => (l === '' ? -1 : i)).filter((i) => i >= 0);
  const chosen = new Set(nonBlank.filter((_, k) => drift.picks[k % 6]! % 2 === 0));
  if (chosen.size === 0) chosen.add(nonBlank[0]!);
  return lines.map((line, i) => driftLine(line, i, drift, chosen));
}

function driftLine(line: string, i: number, drift: Drift, chosen: Set<number>): string {
  switch (drift.kind) {
    case 'none':
      return line;
    case 'trailing':
      return chosen.has(i) ? line + [' ', '\t', '  \t'][drift.picks[i % 6]! % 3] : line;
    case 'indent-patch':
      return line === '' ? line : drift.prefix + line;
    case 'indent-file':
      return line === '' ? line : line.slice(2);
    case 'uneven':
      return line === '' ? line : ['\t', '\t\t'][drift.picks[i % 6]! % 2] + line.trimStart();
    case 'lookalike':
      return chosen.has(i)
        ? line.replace('-', '\u2013').replace(/"/g, drift.picks[i % 6]! % 2 ? '\u201c' : '"')
        : line;
  }
}

/** An added line as the model writes it under a drift, and as it must land in the file. */
function addedLine(canonical: string, drift: Drift): { written: string; landed: string } {
  if (canonical.trim() === '') return { written: canonical, landed: canonical };
  if (drift.kind === 'indent-patch') return { written: drift.prefix + canonical, landed: canonical };
  if (drift.kind === 'indent-file') return { written: canonical.slice(2), landed: canonical };
  return { written: canonical, landed: canonical };
}

const chunkShapeArb = fc.record({
  removes: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  adds: fc.array(
    fc.record({ at: fc.nat(6), text: fc.constantFrom('    added();', '      more(1);', '', '   ') }),
    { maxLength: 3 },
  ),
});

describe('located at the cut, with the expected pass', () => {
  test('every tolerated drift', () => {
    fc.assert(
      fc.property(
        fileAndBlock,
        driftArb,
        chunkShapeArb,
        fc.nat(),
        fc.boolean(),
        (fb, drift, shape, cursorSeed, useAnchor) => {
          const { lines, start, length } = fb;
          const old = lines.slice(start, start + length);
          const drifted = driftOld(old, drift);
          const chunkLines: ChunkLine[] = [];
          const expected: ReplacementLine[] = [];
          for (let j = 0; j <= length; j++) {
            for (const add of shape.adds.filter((a) => Math.min(a.at, length) === j)) {
              const { written, landed } = addedLine(add.text, drift);
              chunkLines.push({ kind: 'add', text: written, line: 0 });
              expected.push({ from: 'patch', text: landed });
            }
            if (j === length) break;
            const remove = shape.removes[j]!;
            chunkLines.push({ kind: remove ? 'remove' : 'context', text: drifted[j]!, line: 0 });
            if (!remove) expected.push({ from: 'file', index: start + j });
          }
          const anchorCandidates = lines.slice(0, start).flatMap((l, i) => (l === '' ? [] : [i]));
          const anchorLine = useAnchor && anchorCandidates.length > 0 ? anchorCandidates.at(-1)! : undefined;
          const cursor = anchorLine === undefined ? cursorSeed % (start + 1) : cursorSeed % (anchorLine + 1);
          const anchors = anchorLine === undefined ? [] : [{ text: lines[anchorLine]!, line: 0 }];

          const result = locateChunk(
            indexFile(lines),
            { anchors, lines: chunkLines, endOfFile: false, line: 1 },
            { cursor },
          );
          if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
          expect(result.start).toBe(start);
          expect(result.length).toBe(length);
          expect(result.cursor).toBe(start + length);
          expect(result.pass).toBe(EXPECTED_PASS[drift.kind]);
          expect(result.anchorLines).toEqual(anchorLine === undefined ? [] : [anchorLine]);
          expect(result.replacement).toEqual(expected);
          if (drift.kind === 'indent-patch')
            expect(result.indent).toEqual({ prefix: drift.prefix, side: 'patch' });
          else if (drift.kind === 'indent-file')
            expect(result.indent).toEqual({ prefix: '  ', side: 'file' });
          else expect(result.indent).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a duplicated block', () => {
  test('is AMBIGUOUS, listing both places', () => {
    fc.assert(
      fc.property(fileAndBlock, driftArb, fc.nat(), (fb, drift, at) => {
        const { lines, start, length } = fb;
        const block = lines.slice(start, start + length);
        const outside = [
          ...Array(start + 1).keys(),
          ...Array.from({ length: lines.length - start - length + 1 }, (_, i) => start + length + i),
        ];
        const insertAt = outside[at % outside.length]!;
        const doubled = [...lines.slice(0, insertAt), ...block, ...lines.slice(insertAt)];
        const places = insertAt <= start ? [insertAt, start + length] : [start, insertAt];
        const chunkLines: ChunkLine[] = driftOld(block, drift).map((text) => ({
          kind: 'remove',
          text,
          line: 0,
        }));
        const result = locateChunk(
          indexFile(doubled),
          { anchors: [], lines: chunkLines, endOfFile: false, line: 1 },
          { cursor: 0 },
        );
        expect(result).toMatchObject({ ok: false, code: 'AMBIGUOUS', candidates: places.map((p) => p + 1) });
        const first = locateChunk(
          indexFile(doubled),
          { anchors: [], lines: chunkLines, endOfFile: false, line: 1 },
          { cursor: 0, firstMatch: true },
        );
        expect(first).toMatchObject({ ok: true, start: places[0], pass: EXPECTED_PASS[drift.kind] });
      }),
      { numRuns: 200 },
    );
  });
});

describe('a drift beyond every pass', () => {
  test('a changed word is NO_MATCH whose nearest region is the cut', () => {
    fc.assert(
      fc.property(fileAndBlock, fc.nat(), (fb, pick) => {
        const { lines, start, length } = fb;
        const old = lines.slice(start, start + length);
        const nonBlank = old.flatMap((l, i) => (l === '' ? [] : [i]));
        const changed = nonBlank[pick % nonBlank.length]!;
        const expectedLines = old.map((l, i) => (i === changed ? l.replace(/^(\s*)\w+/, '$1zqxwv') : l));
        const chunkLines: ChunkLine[] = expectedLines.map((text) => ({ kind: 'context', text, line: 0 }));
        const result = locateChunk(
          indexFile(lines),
          { anchors: [], lines: chunkLines, endOfFile: false, line: 1 },
          { cursor: 0 },
        );
        if (result.ok) throw new Error('matched a changed word');
        expect(result.code).toBe('NO_MATCH');
        expect(result.nearest).toMatchObject({ startLine: start + 1, endLine: start + length });
        expect(result.nearest!.similarity).toBeGreaterThan(0);
        expect(result.nearest!.similarity).toBeLessThan(1);
        expect(result.nearest!.diff).toContain(`-${expectedLines[changed]}`);
        expect(result.nearest!.diff).toContain(`+${old[changed]}`);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a line hint among repeated lines', () => {
  // Lines of a two-letter alphabet repeat, so most blocks occur many times and the hint decides.
  const repetitive = fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 40 }).chain((lines) =>
    fc.record({
      lines: fc.constant(lines),
      start: fc.nat(lines.length - 1),
      length: fc.integer({ min: 1, max: 4 }),
      hint: fc.nat(lines.length + 2),
      cursor: fc.nat(lines.length),
    }),
  );

  /** SPEC §2 for a block that occurs unchanged: every exact start after the cursor, then the strictly nearest to the hint. */
  function expected(lines: string[], block: string[], hint: number, cursor: number): number | 'AMBIGUOUS' {
    const starts: number[] = [];
    for (let s = cursor; s + block.length <= lines.length; s++)
      if (block.every((line, j) => lines[s + j] === line)) starts.push(s);
    if (starts.length === 1) return starts[0]!;
    const distances = starts.map((s) => Math.abs(s - hint));
    const best = Math.min(...distances);
    return distances.filter((d) => d === best).length === 1 ? starts[distances.indexOf(best)]! : 'AMBIGUOUS';
  }

  test('the chunk goes where the rules say, whether or not the hint names a start', () => {
    fc.assert(
      fc.property(repetitive, ({ lines, start, length, hint, cursor }) => {
        const block = lines.slice(start, start + length);
        const from = Math.min(cursor, start);
        const chunkLines: ChunkLine[] = block.map((text) => ({ kind: 'remove', text, line: 0 }));
        const result = locateChunk(
          indexFile(lines),
          {
            anchors: [],
            lines: chunkLines,
            endOfFile: false,
            line: 1,
            hint: { oldStart: hint + 1, newStart: 1 },
          },
          { cursor: from },
        );
        const want = expected(lines, block, hint, from);
        if (want === 'AMBIGUOUS') expect(result).toMatchObject({ ok: false, code: 'AMBIGUOUS' });
        else expect(result).toMatchObject({ ok: true, start: want, pass: 'exact' });
      }),
      { numRuns: 500 },
    );
  });
});
