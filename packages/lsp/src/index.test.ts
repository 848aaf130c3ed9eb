import { expect, it } from 'vitest';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'BUILTIN_SERVERS',
    'DEFAULT_MAX_PER_FILE',
    'DEFAULT_SETTLE_MS',
    'DEFAULT_TIMEOUT_MS',
    'PYTHON_SERVER',
    'TYPESCRIPT_SERVER',
    'collectDiagnostics',
    'createDiagnosticsSession',
    'findProjectRoot',
    'newErrors',
    'resolveServerCommand',
    'spawnTransport',
  ]);
});
