import { expect, it } from 'vitest';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'CONFIG_FILE',
    'PATCH_FORMATS',
    'PERMISSION_ACTIONS',
    'applyPatchInputSchema',
    'createPermissionGate',
    'decide',
    'decidePath',
    'diagnoseWith',
    'editInputSchema',
    'editToolInputSchema',
    'editsOf',
    'formatForModel',
    'formatUndo',
    'loadConfig',
    'loadPolicy',
    'matchesGlob',
    'parseConfig',
    'parsePolicy',
    'planEdit',
    'planPaths',
    'runEdit',
    'startDiagnostics',
    'strReplaceCommandSchema',
    'toolInputJsonSchemas',
    'undoInputSchema',
    'undoLast',
    'viewFile',
    'viewInputSchema',
  ]);
});
