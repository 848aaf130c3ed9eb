import { describe, expect, test, vi } from 'vitest';
import { indexFile } from './file-index.js';
import { locateChunk } from './locate-chunk.js';
import { chunk } from './test-support/chunk.js';
import type { ChunkLocation, ChunkMiss, LocateResult, ReplacementLine } from './types.js';

function located(result: LocateResult): ChunkLocation {
  if (!result.ok) throw new Error(`expected a location, got ${result.code}: ${result.message}`);
  return result;
}

function missed(result: LocateResult): ChunkMiss {
  if (result.ok) throw new Error(`expected a miss, got a match at ${result.start} (${result.pass})`);
  return result;
}

/** The matched region's new text, as the planner would write it. */
function written(lines: readonly string[], replacement: readonly ReplacementLine[]): string[] {
  return replacement.map((r) => (r.from === 'file' ? lines[r.index]! : r.text));
}

describe('passes', () => {
  const cases: {
    name: string;
    file: string[];
    body: string[];
    pass: string;
    start: number;
    out: string[];
    indent?: { prefix: string; side: 'file' | 'patch' };
  }[] = [
    {
      name: 'exact',
      file: ['a', 'b', 'c'],
      body: [' b', '-c', '+C'],
      pass: 'exact',
      start: 1,
      out: ['b', 'C'],
    },
    {
      name: 'trailing whitespace in the file',
      file: ['a', 'b  ', 'c\t'],
      body: [' b', '-c', '+C'],
      pass: 'trailing-whitespace',
      start: 1,
      out: ['b  ', 'C'],
    },
    {
      name: 'trailing whitespace in the patch',
      file: ['a', 'b', 'c'],
      body: [' b ', '-c', '+C'],
      pass: 'trailing-whitespace',
      start: 1,
      out: ['b', 'C'],
    },
    {
      name: 'indentation: the file has an extra prefix, added lines get it',
      file: ['class A {', '    foo();', '', '    bar();', '}'],
      body: ['   foo();', ' ', '-  bar();', '+  baz();', '+    nested();', '+   '],
      pass: 'indentation',
      start: 1,
      out: ['    foo();', '', '    baz();', '      nested();', '   '],
      indent: { prefix: '  ', side: 'file' },
    },
    {
      name: 'indentation: the patch has an extra prefix, added lines lose it where present',
      file: ['def f():', 'x = 1', 'y = 2'],
      body: [' \tdef f():', '-\tx = 1', '+\tx = 10', '+z = 3'],
      pass: 'indentation',
      start: 0,
      out: ['def f():', 'x = 10', 'z = 3'],
      indent: { prefix: '\t', side: 'patch' },
    },
    {
      name: 'indentation with trailing whitespace ignored',
      file: ['  a  ', '  b'],
      body: [' a', '-b', '+c'],
      pass: 'indentation',
      start: 0,
      out: ['  a  ', '  c'],
      indent: { prefix: '  ', side: 'file' },
    },
    {
      name: 'tabs and spaces are not interchangeable: trimmed pass, added lines as written',
      file: ['\tfoo();', '\tbar();'],
      body: ['    foo();', '-    bar();', '+    baz();'],
      pass: 'trimmed',
      start: 0,
      out: ['\tfoo();', '    baz();'],
    },
    {
      name: 'uneven indentation: trimmed pass',
      file: ['  a', '    b', 'c'],
      body: ['    a', '-  b', '+  B'],
      pass: 'trimmed',
      start: 0,
      out: ['  a', '  B'],
    },
    {
      name: 'the same prefix on different sides is not uniform',
      file: ['  a', 'b'],
      body: [' a', '-  b', '+x'],
      pass: 'trimmed',
      start: 0,
      out: ['  a', 'x'],
    },
    {
      name: 'look-alike dashes and quotes in the file',
      file: ['x = a \u2013 b', 'say(\u201chi\u201d)', 'it\u2019s'],
      body: [' x = a - b', '-say("hi")', "+say('hi')"],
      pass: 'lookalike',
      start: 0,
      out: ['x = a \u2013 b', "say('hi')"],
    },
    {
      name: 'look-alike spaces, ellipsis and BOM in the patch',
      file: ['wait...', 'a b'],
      body: [' \ufeffwait\u2026', '-a\u00a0b', '+a  b'],
      pass: 'lookalike',
      start: 0,
      out: ['wait...', 'a  b'],
    },
  ];
  test.each(cases)('$name', ({ file, body, pass, start, out, indent }) => {
    const result = located(locateChunk(indexFile(file), chunk(body), { cursor: 0 }));
    expect(result.pass).toBe(pass);
    expect(result.start).toBe(start);
    expect(written(file, result.replacement)).toEqual(out);
    expect(result.indent).toEqual(indent);
  });

  test('the first pass with any candidate decides, even when a later pass would find another', () => {
    const file = ['b  ', 'x', '  b', 'y'];
    const result = located(locateChunk(indexFile(file), chunk(['-b']), { cursor: 0 }));
    expect(result.pass).toBe('trailing-whitespace');
    expect(result.start).toBe(0);
  });

  test('an exact candidate wins over an earlier tolerant one', () => {
    const file = ['b ', 'b'];
    expect(located(locateChunk(indexFile(file), chunk(['-b']), { cursor: 0 })).start).toBe(1);
  });

  test('look-alikes outside the table are not folded', () => {
    const file = ['a\u2000b'];
    expect(missed(locateChunk(indexFile(file), chunk(['-a b']), { cursor: 0 })).code).toBe('NO_MATCH');
  });

  test('context and removed lines map onto consecutive file lines', () => {
    const file = ['0', '1', '2', '3', '4'];
    const result = located(
      locateChunk(indexFile(file), chunk([' 1', '-2', '+two', ' 3', '-4']), { cursor: 0 }),
    );
    expect(result).toMatchObject({ start: 1, length: 4, cursor: 5 });
    expect(result.replacement).toEqual([
      { from: 'file', index: 1 },
      { from: 'patch', text: 'two' },
      { from: 'file', index: 3 },
    ]);
  });
});

describe('region', () => {
  const file = ['x', 'a', 'y', 'a', 'z'];

  test('the search starts at the cursor', () => {
    const result = located(locateChunk(indexFile(file), chunk(['-a']), { cursor: 2 }));
    expect(result).toMatchObject({ start: 3, cursor: 4 });
  });

  test('lines before the cursor are not found, and the message says so', () => {
    const result = missed(locateChunk(indexFile(file), chunk([' x', '-a']), { cursor: 1 }));
    expect(result.code).toBe('NO_MATCH');
    expect(result.nearest).toMatchObject({ startLine: 1, endLine: 2, similarity: 1 });
    expect(result.message).toContain('before the previous chunk');
  });

  test('a cursor past the end leaves an empty region', () => {
    expect(missed(locateChunk(indexFile(file), chunk(['-z']), { cursor: 99 })).code).toBe('NO_MATCH');
  });

  test('end of file: a block repeated earlier is pinned to the end, not ambiguous', () => {
    const lines = ['a', 'b', 'x', 'a', 'b'];
    const result = located(
      locateChunk(indexFile(lines), chunk([' a', '-b'], { endOfFile: true }), { cursor: 0 }),
    );
    expect(result).toMatchObject({ start: 3, length: 2, cursor: 5 });
  });

  test('end of file: a block that is not at the end does not match', () => {
    const lines = ['a', 'b', 'c'];
    const result = missed(
      locateChunk(indexFile(lines), chunk([' a', '-b'], { endOfFile: true }), { cursor: 0 }),
    );
    expect(result.code).toBe('NO_MATCH');
    expect(result.message).toContain('at the end of the file');
  });

  test('end of file: tolerant passes apply at the end too', () => {
    const lines = ['a', 'b  '];
    const result = located(
      locateChunk(indexFile(lines), chunk(['-b', '+c'], { endOfFile: true }), { cursor: 0 }),
    );
    expect(result).toMatchObject({ start: 1, pass: 'trailing-whitespace' });
  });

  test('end of file: the end must lie after the cursor', () => {
    const lines = ['a', 'b'];
    expect(
      missed(locateChunk(indexFile(lines), chunk(['-a', '-b'], { endOfFile: true }), { cursor: 1 })).code,
    ).toBe('NO_MATCH');
  });
});

describe('anchors', () => {
  const file = [
    'class A {',
    '  run() {',
    '    go();',
    '  }',
    '}',
    'class B {',
    '  run() {',
    '    go();',
    '  }',
    '}',
  ];

  test('an anchor picks the block after it; the block is not required to be unique', () => {
    const result = located(
      locateChunk(indexFile(file), chunk(['-    go();', '+    stop();'], { anchors: ['class B {'] }), {
        cursor: 0,
      }),
    );
    expect(result).toMatchObject({ start: 7, anchorLines: [5], cursor: 8 });
  });

  test('stacked anchors are each searched after the previous', () => {
    const result = located(
      locateChunk(indexFile(file), chunk(['-    go();'], { anchors: ['class B {', '  run() {'] }), {
        cursor: 0,
      }),
    );
    expect(result).toMatchObject({ start: 7, anchorLines: [5, 6] });
  });

  test('an anchor that matches twice in the region is AMBIGUOUS with its 1-based lines', () => {
    const result = missed(
      locateChunk(indexFile(file), chunk(['-    go();'], { anchors: ['  run() {'] }), { cursor: 0 }),
    );
    expect(result).toMatchObject({ code: 'AMBIGUOUS', candidates: [2, 7], anchor: '  run() {' });
  });

  test('a stacked anchor must be unique only after the previous one', () => {
    const result = missed(
      locateChunk(indexFile(file), chunk(['-x'], { anchors: ['class A {', '  run() {'] }), { cursor: 0 }),
    );
    expect(result).toMatchObject({ code: 'AMBIGUOUS', candidates: [2, 7] });
  });

  test('first-match takes the first anchor candidate', () => {
    const result = located(
      locateChunk(indexFile(file), chunk(['-    go();'], { anchors: ['  run() {'] }), {
        cursor: 0,
        firstMatch: true,
      }),
    );
    expect(result).toMatchObject({ start: 2, anchorLines: [1] });
  });

  test('anchors use the tolerant passes', () => {
    for (const anchor of ['class B {  ', '  class B {', 'class B\u00a0{']) {
      const result = located(
        locateChunk(indexFile(file), chunk(['-    go();'], { anchors: [anchor] }), { cursor: 0 }),
      );
      expect(result).toMatchObject({ start: 7, anchorLines: [5] });
    }
  });

  test('the anchor is searched from the cursor', () => {
    const result = missed(
      locateChunk(indexFile(file), chunk(['-    go();'], { anchors: ['class A {'] }), { cursor: 1 }),
    );
    expect(result).toMatchObject({ code: 'NO_MATCH', anchor: 'class A {' });
    expect(result.message).toContain('@@ class A {');
    expect(result.nearest?.startLine).toBe(1);
  });

  test('the lines must follow the anchor', () => {
    const result = missed(
      locateChunk(indexFile(file), chunk(['-class A {'], { anchors: ['class B {'] }), { cursor: 0 }),
    );
    expect(result.code).toBe('NO_MATCH');
    expect(result.anchor).toBeUndefined();
  });
});

describe('uniqueness', () => {
  const file = ['a', 'x', 'a', 'y', 'a'];

  test('several candidates without an anchor are AMBIGUOUS, listing every 1-based line', () => {
    const result = missed(locateChunk(indexFile(file), chunk(['-a', '+b']), { cursor: 0 }));
    expect(result).toMatchObject({ code: 'AMBIGUOUS', candidates: [1, 3, 5] });
    expect(result.message).toContain('1, 3, 5');
  });

  test('candidates are counted at the deciding pass only', () => {
    const lines = ['a', 'a ', ' a'];
    expect(located(locateChunk(indexFile(lines), chunk(['-a']), { cursor: 0 })).start).toBe(0);
    expect(missed(locateChunk(indexFile(lines), chunk(['-a\t']), { cursor: 0 }))).toMatchObject({
      candidates: [1, 2],
    });
  });

  test('a line hint that makes one candidate strictly nearest picks it', () => {
    const hint = { oldStart: 5, newStart: 5 };
    expect(located(locateChunk(indexFile(file), chunk(['-a'], { hint }), { cursor: 0 })).start).toBe(4);
    const nearFirst = { oldStart: 1, newStart: 1 };
    expect(
      located(locateChunk(indexFile(file), chunk(['-a'], { hint: nearFirst }), { cursor: 0 })).start,
    ).toBe(0);
  });

  test('a hint equally near two candidates decides nothing', () => {
    const hint = { oldStart: 2, newStart: 2 };
    expect(missed(locateChunk(indexFile(file), chunk(['-a'], { hint }), { cursor: 0 })).candidates).toEqual([
      1, 3, 5,
    ]);
  });

  test('first-match takes the first candidate', () => {
    expect(located(locateChunk(indexFile(file), chunk(['-a']), { cursor: 0, firstMatch: true })).start).toBe(
      0,
    );
  });

  test('with first-match a hint still picks the strictly nearest candidate', () => {
    const hint = { oldStart: 3, newStart: 3 };
    const result = located(
      locateChunk(indexFile(file), chunk(['-a'], { hint }), { cursor: 0, firstMatch: true }),
    );
    expect(result.start).toBe(2);
  });

  test('after an anchor the first match wins over a hint', () => {
    const hint = { oldStart: 5, newStart: 5 };
    const result = located(
      locateChunk(indexFile(file), chunk(['-a'], { hint, anchors: ['x'] }), { cursor: 0 }),
    );
    expect(result).toMatchObject({ start: 2, anchorLines: [1] });
  });

  test('a chunk unchanged at its hint is placed there without a table of the file', () => {
    const index = indexFile(file);
    const table = vi.fn(index.table);
    const hint = { oldStart: 3, newStart: 3 };
    const result = located(
      locateChunk({ lines: index.lines, table }, chunk(['-a', '+b'], { hint }), { cursor: 0 }),
    );
    expect(result).toMatchObject({ start: 2, pass: 'exact' });
    expect(table).not.toHaveBeenCalled();
  });

  test('a hint before the cursor is not taken as where the chunk is', () => {
    const hint = { oldStart: 1, newStart: 1 };
    expect(
      located(locateChunk(indexFile(['a', 'x', 'a']), chunk(['-a'], { hint }), { cursor: 1 })).start,
    ).toBe(2);
  });

  test('an end-of-file chunk is not placed at a hint that does not end the file', () => {
    const hint = { oldStart: 1, newStart: 1 };
    const eof = chunk(['-a'], { hint, endOfFile: true });
    expect(located(locateChunk(indexFile(['a', 'x', 'a']), eof, { cursor: 0 })).start).toBe(2);
  });

  test('lines at the hint that differ in whitespace leave the choice to the passes', () => {
    const hint = { oldStart: 1, newStart: 1 };
    const result = located(locateChunk(indexFile(['a ', 'x', 'a']), chunk(['-a'], { hint }), { cursor: 0 }));
    expect(result).toMatchObject({ start: 2, pass: 'exact' });
  });

  test('overlapping candidates are listed', () => {
    const lines = ['q', 'q', 'q'];
    expect(missed(locateChunk(indexFile(lines), chunk([' q', '-q']), { cursor: 0 })).candidates).toEqual([
      1, 2,
    ]);
  });
});

describe('pure additions', () => {
  const file = ['a', 'b', 'c'];

  test('without an anchor they append at the end and leave the cursor', () => {
    const result = located(locateChunk(indexFile(file), chunk(['+x', '+y']), { cursor: 1 }));
    expect(result).toMatchObject({ start: 3, length: 0, cursor: 1, pass: 'exact' });
    expect(result.replacement).toEqual([
      { from: 'patch', text: 'x' },
      { from: 'patch', text: 'y' },
    ]);
  });

  test('with an anchor they go right after it, and the cursor moves just past the anchor', () => {
    const result = located(locateChunk(indexFile(file), chunk(['+x'], { anchors: ['a'] }), { cursor: 0 }));
    expect(result).toMatchObject({ start: 1, length: 0, cursor: 1, anchorLines: [0] });
  });

  test('marked end of file they append at the end even with an anchor', () => {
    const result = located(
      locateChunk(indexFile(file), chunk(['+x'], { anchors: ['a'], endOfFile: true }), { cursor: 0 }),
    );
    expect(result).toMatchObject({ start: 3, cursor: 1 });
  });

  test('a unified `-N,0` hint inserts after line N', () => {
    const hint = { oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 };
    const result = located(locateChunk(indexFile(file), chunk(['+x'], { hint }), { cursor: 0 }));
    expect(result).toMatchObject({ start: 1, cursor: 1 });
  });

  test('into an empty file', () => {
    expect(located(locateChunk(indexFile([]), chunk(['+x']), { cursor: 0 }))).toMatchObject({
      start: 0,
      length: 0,
    });
  });
});

describe('trailing empty line retry', () => {
  test('an old side ending with an empty line that is not in the file is retried without it', () => {
    const file = ['a', 'b'];
    const result = located(locateChunk(indexFile(file), chunk([' a', '-b', '+c', '']), { cursor: 0 }));
    expect(result).toMatchObject({ start: 0, length: 2, droppedTrailingEmptyLine: true });
    expect(written(file, result.replacement)).toEqual(['a', 'c']);
  });

  test('a removed empty line and an added empty line are both dropped', () => {
    const file = ['a', 'b'];
    const result = located(locateChunk(indexFile(file), chunk([' a', '-b', '-', '+c', '+']), { cursor: 0 }));
    expect(result.droppedTrailingEmptyLine).toBe(true);
    expect(written(file, result.replacement)).toEqual(['a', 'c']);
  });

  test("an empty context line that is not the new side's last line stays as an added line", () => {
    const file = ['a', 'b'];
    const result = located(locateChunk(indexFile(file), chunk([' a', '-b', '', '+c']), { cursor: 0 }));
    expect(result.droppedTrailingEmptyLine).toBe(true);
    expect(written(file, result.replacement)).toEqual(['a', '', 'c']);
  });

  test('no retry when the full old side matches', () => {
    const file = ['a', '', 'b'];
    const result = located(locateChunk(indexFile(file), chunk(['-a', '']), { cursor: 0 }));
    expect(result).toMatchObject({ length: 2, droppedTrailingEmptyLine: false });
  });

  test('the retry keeps uniqueness', () => {
    const file = ['a', 'x', 'a'];
    expect(missed(locateChunk(indexFile(file), chunk(['-a', '']), { cursor: 0 }))).toMatchObject({
      code: 'AMBIGUOUS',
      candidates: [1, 3],
    });
  });

  test('a chunk of only an empty old line does not retry into a pure addition', () => {
    const file = ['a'];
    expect(missed(locateChunk(indexFile(file), chunk(['', '+x']), { cursor: 0 })).code).toBe('NO_MATCH');
  });
});

describe('failure', () => {
  test('NO_MATCH names the expected lines and the nearest region with a diff', () => {
    const file = ['function f() {', '  const total = 1;', '  return total;', '}'];
    const result = missed(
      locateChunk(indexFile(file), chunk([' const total = 2;', '-  return total;', '+  return 0;']), {
        cursor: 0,
      }),
    );
    expect(result.code).toBe('NO_MATCH');
    expect(result.message).toContain('const total = 2;');
    expect(result.message).toContain('return total;');
    expect(result.nearest).toMatchObject({ startLine: 2, endLine: 3 });
    expect(result.nearest!.similarity).toBeGreaterThan(0.5);
    expect(result.nearest!.similarity).toBeLessThan(1);
    expect(result.nearest!.diff).toBe('-const total = 2;\n+  const total = 1;\n   return total;');
  });

  test('long expected blocks are cut in the message', () => {
    const body = Array.from({ length: 30 }, (_, i) => `-missing ${i}`);
    const result = missed(locateChunk(indexFile(['a']), chunk(body), { cursor: 0 }));
    expect(result.message).toContain('18 more lines');
  });

  test('an empty file has no nearest region', () => {
    const result = missed(locateChunk(indexFile([]), chunk(['-a']), { cursor: 0 }));
    expect(result).toMatchObject({ code: 'NO_MATCH' });
    expect(result.nearest).toBeUndefined();
  });
});
