import { expect, test } from 'vitest';

test('the public runtime API is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'diffLines',
    'foldLookalikes',
    'indexFile',
    'indexLines',
    'locateChunk',
    'locateIndexed',
    'locateText',
    'normalizeLine',
  ]);
});
