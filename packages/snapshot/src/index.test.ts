import { expect, it } from 'vitest';

it('pins the public runtime API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'createSnapshot',
    'forgetSnapshot',
    'gcSnapshots',
    'listSnapshots',
    'markRedone',
    'markUndone',
    'planRedo',
    'planUndo',
    'snapshotRef',
  ]);
});
