import { expect, it } from 'vitest';

it('pins the runtime exports, so API changes are deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toStrictEqual([
    'ERROR_CODES',
    'PatchsmithError',
    'compileStrReplace',
    'detectFormat',
    'newLines',
    'oldLines',
    'parseEdits',
    'parsePatch',
    'parsePatchStream',
    'parseSearchReplace',
    'parseUnified',
    'printPatch',
    'printSearchReplace',
    'printUnified',
    'quotePath',
  ]);
});
