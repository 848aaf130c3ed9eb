import { expect, it } from 'vitest';

it('pins the public API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'colorDiff',
    'errorDetails',
    'errorHeading',
    'fileSummaryLine',
    'formatApplyPatch',
    'formatForModel',
    'formatHuman',
    'formatJson',
    'reviewedFile',
    'tolerantMatchNotes',
  ]);
});
