import { expect, test } from 'vitest';
import { indexFile } from './file-index.js';
import { locateChunk } from './locate-chunk.js';
import { largeFile, spreadChunks } from './test-support/large-file.js';
import type { MatchPass } from './types.js';

const LINES = largeFile(100_000);

/** Locates every chunk in order with a cursor, as the planner does for one Update. */
function locateAll(drift: (line: string) => string, pass: MatchPass, told = false): void {
  const { chunks, starts } = spreadChunks(LINES, 200, drift);
  // Told what the chunks search for, as the planner tells it, the index hashes only those lines.
  const expected = chunks.flatMap((chunk) => chunk.lines.filter((l) => l.kind !== 'add').map((l) => l.text));
  const file = told ? indexFile(LINES, expected) : indexFile(LINES);
  let cursor = 0;
  chunks.forEach((chunk, c) => {
    const result = locateChunk(file, chunk, { cursor });
    if (!result.ok) throw new Error(`chunk ${c}: ${result.message}`);
    expect(result).toMatchObject({ start: starts[c], length: 4, pass });
    cursor = result.cursor;
  });
}

test('200 exact chunks in a 100,000-line file', () => {
  locateAll((line) => line, 'exact');
});

test('200 chunks with trailing-whitespace drift on every line', () => {
  locateAll((line) => `${line}  `, 'trailing-whitespace');
});

test('200 chunks with the indentation dropped on every line', () => {
  locateAll((line) => line.trimStart(), 'indentation');
});

test('the same three workloads with an index told the expected texts', () => {
  locateAll((line) => line, 'exact', true);
  locateAll((line) => `${line}  `, 'trailing-whitespace', true);
  locateAll((line) => line.trimStart(), 'indentation', true);
});

test('a miss in a 100,000-line file of repetitive lines still reports a nearest region', () => {
  const file = indexFile(LINES);
  const chunk = {
    anchors: [],
    endOfFile: false,
    line: 1,
    lines: [
      { kind: 'context' as const, text: '  }', line: 0 },
      { kind: 'context' as const, text: '', line: 0 },
      { kind: 'remove' as const, text: '  const v50001 = compute(1, "k-0");', line: 0 },
    ],
  };
  const result = locateChunk(file, chunk, { cursor: 0 });
  if (result.ok) throw new Error('matched a line that is not there');
  expect(result.nearest?.startLine).toBe(49_999 + 1);
  expect(result.nearest?.endLine).toBe(50_002);
});
