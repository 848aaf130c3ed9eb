import { expect, it } from 'vitest';

it('pins the public runtime API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'decodeText',
    'describeChange',
    'encodeText',
    'isNotebookPath',
    'joinLines',
    'notebookView',
    'perFile',
    'planEdits',
    'planNotebooks',
    'planRestore',
    'printUnifiedDiff',
    'resolvePatchPath',
    'restateWrite',
    'splitLines',
    'threeWayMerge',
    'touchedPaths',
  ]);
});
