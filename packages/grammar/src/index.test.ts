import { expect, it } from 'vitest';

it('pins the runtime exports, so API changes are deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toStrictEqual([
    'compileStrReplace',
    'detectFormat',
    'parseEdits',
    'parseEditsStream',
    'parsePatch',
    'parsePatchStream',
    'parseSearchReplace',
    'parseUnified',
    'parseWholeFile',
    'printPatch',
    'printSearchReplace',
    'printUnified',
    'printWholeFile',
  ]);
});
