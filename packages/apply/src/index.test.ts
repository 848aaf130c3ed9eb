import { expect, it } from 'vitest';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'DEFAULT_LOCK_TIMEOUT_MS',
    'applyPlan',
    'checkPlan',
    'discardTransaction',
    'liveLockHolder',
    'readFiles',
    'recoverTransaction',
    'syncFs',
    'withRootLock',
  ]);
});
