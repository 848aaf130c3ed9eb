import { defineConfig } from 'vitest/config';

// Workspace packages resolve to each other's source (the `source` export condition), so a test
// never runs against a stale build of a sibling package.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets `npm test` print one closing 'N passed, N failed' line for the workspace.
    reporters: ['default', 'json'],
    outputFile: { json: 'node_modules/.vitest/report.json' },
  },
});
