import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateText } from './locate-text.js';
import type { TextLine, TextLocateResult } from './types.js';

/** A file's text as lines with their endings (`\r\n`, `\n` or none on the last). */
function lines(text: string): TextLine[] {
  const out: TextLine[] = [];
  const re = /([^\r\n]*)(\r\n|\n|\r|$)/y;
  while (re.lastIndex < text.length) {
    const m = re.exec(text)!;
    out.push({ text: m[1]!, ending: m[2]! as TextLine['ending'] });
  }
  return out;
}

function ok(result: TextLocateResult) {
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe('locateText', () => {
  it('finds an exact substring, which may be part of a line', () => {
    const r = ok(locateText(lines('let a = 1;\nlet b = 2;\n'), { search: 'b = 2', replace: 'b = 3' }));
    expect(r).toStrictEqual({
      ok: true,
      kind: 'substring',
      pass: 'exact',
      matches: [{ start: 15, end: 20, line: 1 }],
      replacement: 'b = 3',
    });
  });

  it('is AMBIGUOUS with every candidate line when the text occurs more than once', () => {
    const r = locateText(lines('x\ny\nx\n'), { search: 'x', replace: 'z' });
    expect(r).toMatchObject({ ok: false, code: 'AMBIGUOUS', candidates: [1, 3] });
  });

  it('counts overlapping occurrences as ambiguous, and replaces non-overlapping ones with all', () => {
    expect(locateText(lines('aaa\n'), { search: 'aa', replace: 'b' })).toMatchObject({ code: 'AMBIGUOUS' });
    const r = ok(locateText(lines('aaaa\n'), { search: 'aa', replace: 'b' }, { all: true }));
    expect(r.kind === 'substring' && r.matches.map((m) => m.start)).toStrictEqual([0, 2]);
  });

  it('takes the first candidate with firstMatch', () => {
    const r = ok(locateText(lines('x\ny\nx\n'), { search: 'x', replace: 'z' }, { firstMatch: true }));
    expect(r.kind === 'substring' && r.matches).toStrictEqual([{ start: 0, end: 1, line: 0 }]);
  });

  it('matches a LF search in a CRLF file exactly, writing the replacement with CRLF', () => {
    const r = ok(locateText(lines('a\r\nb\r\nc\r\n'), { search: 'a\nb\n', replace: 'x\ny\n' }));
    expect(r).toMatchObject({
      kind: 'substring',
      matches: [{ start: 0, end: 6 }],
      replacement: 'x\r\ny\r\n',
    });
  });

  it('falls back to the line passes: trailing whitespace, then indentation (re-indenting new lines)', () => {
    const file = lines('def f():\n    if x:   \n        return 1\n');
    const trailing = ok(locateText(file, { search: '    if x:\n', replace: '    if y:\n' }));
    expect(trailing).toMatchObject({
      kind: 'lines',
      pass: 'trailing-whitespace',
      matches: [{ start: 1, length: 1 }],
    });
    const indented = ok(
      locateText(file, { search: 'if x:\n    return 1\n', replace: 'if x:\n    return 2\n' }),
    );
    expect(indented).toMatchObject({
      kind: 'lines',
      pass: 'indentation',
      matches: [
        {
          start: 1,
          length: 2,
          replacement: [
            { from: 'file', index: 1 },
            { from: 'patch', text: '        return 2' },
          ],
          indent: { prefix: '    ', side: 'file' },
        },
      ],
    });
  });

  it('keeps the file bytes of lines that are equal in search and replace (line diff)', () => {
    const file = lines('  a  \n b\n   c  \n');
    const r = ok(locateText(file, { search: 'a\nb\nc\n', replace: 'a\nB\nnew\nc\n' }));
    expect(r.pass).toBe('trimmed');
    expect(r.kind === 'lines' && r.matches[0]!.replacement).toStrictEqual([
      { from: 'file', index: 0 },
      { from: 'patch', text: 'B' },
      { from: 'patch', text: 'new' },
      { from: 'file', index: 2 },
    ]);
  });

  it('whole-line blocks skip the substring pass', () => {
    const r = locateText(lines('xab\n'), { search: 'ab\n', replace: 'c\n' }, { wholeLines: true });
    expect(r).toMatchObject({ ok: false, code: 'NO_MATCH' });
  });

  it('a miss is NO_MATCH with the nearest region', () => {
    const r = locateText(lines('alpha\nbeta\ngamma\n'), { search: 'alpha\nbeta2\n', replace: 'x' });
    expect(r).toMatchObject({ ok: false, code: 'NO_MATCH', nearest: { startLine: 1, endLine: 2 } });
  });

  it('an exact occurrence is always found, unique or all (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', ' ', '\n', 'x'), { maxLength: 30 }),
        fc.nat(),
        fc.nat(4),
        (chars, at, len) => {
          const text = chars.join('');
          const start = text.length === 0 ? 0 : at % text.length;
          const search = text.slice(start, start + len + 1);
          fc.pre(search !== '');
          const r = locateText(lines(text), { search, replace: 'Q' }, { all: true });
          expect(r.ok && r.kind).toBe('substring');
          if (r.ok && r.kind === 'substring')
            for (const m of r.matches) expect(text.slice(m.start, m.end)).toBe(search);
        },
      ),
      { numRuns: 200 },
    );
  });
});
