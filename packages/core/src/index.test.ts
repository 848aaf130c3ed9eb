import { expect, it } from 'vitest';

it('pins the public API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'CONFIG_FILE',
    'ERROR_CODES',
    'MAX_CONFIG_BYTES',
    'PERMISSION_ACTIONS',
    'PLAIN_STATE_DIR',
    'PatchsmithError',
    'climbsOut',
    'decideNames',
    'decidePath',
    'describeDecidedPath',
    'describeRule',
    'isInsidePath',
    'isStrictlyInside',
    'loadConfig',
    'loadPolicy',
    'matchesGlob',
    'parseConfig',
    'parsePolicy',
    'protectedPathReason',
    'refusePath',
    'toTreePath',
  ]);
});
