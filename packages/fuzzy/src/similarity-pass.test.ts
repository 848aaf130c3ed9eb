import { describe, expect, test } from 'vitest';
import { indexFile } from './file-index.js';
import { locateChunk } from './locate-chunk.js';
import { chunk } from './test-support/chunk.js';

const FILE = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price;',
  '  return sum;',
  '}',
  'function count(items) {',
  '  return items.length;',
  '}',
];

describe('similarity pass (opt-in)', () => {
  const drifted = chunk([
    ' let sum = 0;',
    '-  for (const item of items) sum += item.cost;',
    '+  for (const item of items) sum += item.price * item.qty;',
    '   return sum;',
  ]);

  test('is off by default: a drifted word is NO_MATCH', () => {
    expect(locateChunk(indexFile(FILE), drifted, { cursor: 0 })).toMatchObject({
      ok: false,
      code: 'NO_MATCH',
    });
  });

  test('with a threshold it takes the most similar window and says so', () => {
    const result = locateChunk(indexFile(FILE), drifted, { cursor: 0, similarity: 0.8 });
    expect(result).toMatchObject({ ok: true, start: 1, length: 3, pass: 'similarity', cursor: 4 });
    if (!result.ok) return;
    expect(result.replacement).toEqual([
      { from: 'file', index: 1 },
      { from: 'patch', text: '  for (const item of items) sum += item.price * item.qty;' },
      { from: 'file', index: 3 },
    ]);
  });

  test('below the threshold it is still NO_MATCH', () => {
    expect(locateChunk(indexFile(FILE), drifted, { cursor: 0, similarity: 0.99 })).toMatchObject({
      code: 'NO_MATCH',
    });
  });

  test('only windows inside the region count', () => {
    expect(locateChunk(indexFile(FILE), drifted, { cursor: 2, similarity: 0.8 })).toMatchObject({
      ok: false,
    });
  });

  test('two equally similar windows decide nothing', () => {
    const twice = ['a', 'value = 1', 'b', 'value = 1'];
    expect(
      locateChunk(indexFile(twice), chunk(['-value = 2']), { cursor: 0, similarity: 0.5 }),
    ).toMatchObject({
      ok: false,
      code: 'NO_MATCH',
    });
  });

  test('the passes of SPEC §2 still come first', () => {
    const result = locateChunk(indexFile(FILE), chunk(['-  return sum;  ']), { cursor: 0, similarity: 0.5 });
    expect(result).toMatchObject({ ok: true, pass: 'trailing-whitespace', start: 3 });
  });
});
