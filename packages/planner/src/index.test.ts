import { expect, it } from 'vitest';

it('pins the public runtime API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'describeChange',
    'isNotebookPath',
    'linkPaths',
    'notebookView',
    'perFile',
    'planEdits',
    'planNotebooks',
    'planRestore',
    'printUnifiedDiff',
    'resolvePatchPath',
    'restateWrite',
    'threeWayMerge',
    'touchedPaths',
  ]);
});
