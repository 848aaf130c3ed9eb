import { expect, it } from 'vitest';

it('pins the public runtime API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'describeChange',
    'linkPaths',
    'perFile',
    'planEdits',
    'planRestore',
    'printUnifiedDiff',
    'resolvePatchPath',
    'threeWayMerge',
    'touchedPaths',
  ]);
});
