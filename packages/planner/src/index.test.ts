import { expect, it } from 'vitest';

it('pins the public runtime API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'decodeText',
    'describeChange',
    'encodeText',
    'joinLines',
    'linkPaths',
    'perFile',
    'planEdits',
    'planRestore',
    'printUnifiedDiff',
    'resolvePatchPath',
    'splitLines',
    'threeWayMerge',
    'touchedPaths',
  ]);
});
