import type { ReplaceText } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { oracleReplaces } from './test-support/replace-oracle.js';
import { file, files, ROOT, script } from './test-support/script.js';
import type { PlanResult } from './types.js';

const PATH = 'f.txt';

/** Few distinct lines, so searches repeat (AMBIGUOUS, `all`) and line passes 2–5 get their turn. */
// Lines of 8 characters and more are searched within through the index's substring table.
const lineText = fc.constantFrom(
  'a',
  'b',
  'a b',
  '  a',
  '\ta',
  'a ',
  'c',
  '',
  '}',
  '“q”',
  'abcdefghij',
  'xabcdefghijy',
);
const ending = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');

const content = fc
  .record({
    lines: fc.array(fc.tuple(lineText, ending), { maxLength: 30 }),
    last: fc.option(lineText, { nil: undefined }),
  })
  .map(({ lines, last }) => written(lines) + (last ?? ''));

/**
 * An edit's search: a piece of the file as it started (so most edits find something), or text
 * made up; its replacement made up, sometimes the search with a change.
 */
const edit = (size: number) =>
  fc.record({
    from: fc.nat(size),
    length: fc.integer({ min: 1, max: 24 }),
    made: fc.option(fc.array(fc.tuple(lineText, ending), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    replace: fc.array(fc.tuple(lineText, fc.constantFrom('\n', '\r\n', '')), { maxLength: 3 }),
    all: fc.boolean(),
    wholeLines: fc.boolean(),
    drift: fc.constantFrom('none', 'none', 'trailing', 'indent'),
  });

/**
 * Distinct lines put before a file so it is large enough for the index to hash only the lines the
 * edits ask about.
 */
const PADDING = Array.from({ length: 2_100 }, (_, i) => `pad ${i}\n`).join('');

const scenario = (prefix: string) =>
  content
    .map((body) => prefix + body)
    .chain((start) =>
      fc.record({
        start: fc.constant(start),
        edits: fc.array(edit(start.length - prefix.length), { minLength: 1, maxLength: 8 }),
        firstMatch: fc.boolean(),
      }),
    );

type GeneratedEdit = ReturnType<typeof edit> extends fc.Arbitrary<infer T> ? T : never;

/** Rows of text and ending, written out. */
function written(rows: ReadonlyArray<readonly [string, string]>): string {
  return rows.map(([text, end]) => text + end).join('');
}

/** A piece of the file with its whitespace drifted, for passes 2–5: a space before each line break, or an indented start of each line. */
function drifted(piece: string, drift: GeneratedEdit['drift']): string {
  if (drift === 'trailing') return piece.replace(/(\r\n|\n|\r)/g, ' $1');
  if (drift === 'indent') return `  ${piece.replace(/(\r\n|\n|\r)(?=.)/g, '$1  ')}`;
  return piece;
}

function operations(start: string, edits: readonly GeneratedEdit[], from = 0): ReplaceText[] {
  return edits.map((e, i) => {
    const piece = drifted(start.slice(from + e.from, from + e.from + e.length), e.drift);
    const search = e.made !== undefined ? written(e.made) : piece === '' ? 'a' : piece;
    const replace = written(e.replace);
    return {
      kind: 'replace',
      path: PATH,
      search,
      replace,
      all: e.all,
      wholeLines: e.wholeLines,
      line: i + 1,
    };
  });
}

function codes(result: PlanResult): string[] {
  return result.ok ? [] : result.errors.map((e) => `${e.code}: ${e.message}`);
}

/** Plans the scenario both ways and compares them. */
function agreesWithOracle(prefix: string) {
  return ({ start, edits, firstMatch }: { start: string; edits: GeneratedEdit[]; firstMatch: boolean }) => {
    const ops = operations(start, edits, prefix.length);
    const startFile = file(start);
    const result = planEdits(script(...ops), files({ [PATH]: startFile }), { root: ROOT, firstMatch });
    const oracle = oracleReplaces(ops, PATH, startFile, firstMatch);
    if (oracle.error !== undefined) {
      const { alreadyApplied, ...error } = oracle.error;
      const reapplied = alreadyApplied && oracle.planned.length === ops.length - 1;
      if (reapplied)
        expect(codes(result)).toEqual([
          expect.stringMatching(/^EMPTY_PATCH: the patch looks already applied/),
        ]);
      else expect(result).toEqual({ ok: false, errors: [error] });
      return;
    }
    const unchanged = Buffer.from(oracle.bytes ?? []).equals(Buffer.from(start));
    if (unchanged) {
      expect(codes(result)).toEqual([expect.stringMatching(/^EMPTY_PATCH: the patch changes nothing/)]);
      return;
    }
    if (!result.ok) throw new Error(`expected a plan, got ${codes(result).join('; ')}`);
    expect(result.plan.files).toEqual(oracle.planned);
    expect(Buffer.from(result.plan.writes[0]?.after?.bytes ?? [])).toEqual(Buffer.from(oracle.bytes ?? []));
  };
}

describe('consecutive edits of one file (planReplaces)', () => {
  it('plan exactly what the per-edit algorithm plans: each diff, the file, the errors', () => {
    fc.assert(fc.property(scenario(''), agreesWithOracle('')), { numRuns: 2_000 });
  });

  it('agree with it on a large file too, where the index hashes only the lines searched for', () => {
    fc.assert(fc.property(scenario(PADDING), agreesWithOracle(PADDING)), { numRuns: 50 });
  });
});
