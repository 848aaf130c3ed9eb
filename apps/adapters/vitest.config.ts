import { mergeConfig } from 'vitest/config';
import base from '../../tooling/config/vitest.config.ts';

// eventsource-parser (loaded by `ai`) publishes its TypeScript sources under the `source` export
// condition this workspace resolves with; inlining lets vite transpile them instead of Node
// failing on a `.ts` file.
export default mergeConfig(base, {
  test: { server: { deps: { inline: ['ai', /@ai-sdk\//, 'eventsource-parser'] } } },
});
