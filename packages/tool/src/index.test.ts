import { expect, it } from 'vitest';

// Only what a host (the CLI, apps/adapters, a user's program) uses; the policy's building blocks
// are @patchsmith/core's, and the schemas' parts stay inside.
it('exports exactly the public API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'applyPatchInputSchema',
    'applyPlanned',
    'createPermissionGate',
    'diagnoseWith',
    'editToolInputSchema',
    'formatForModel',
    'formatUndo',
    'loadConfig',
    'loadPolicy',
    'oneAtATime',
    'planEdit',
    'redoLast',
    'runEdit',
    'startDiagnostics',
    'strictModeProblems',
    'syncFs',
    'toolEdits',
    'toolInputJsonSchemas',
    'undoInputSchema',
    'undoLast',
    'viewFile',
    'viewInputSchema',
  ]);
});
