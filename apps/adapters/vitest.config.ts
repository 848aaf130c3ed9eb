import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../tooling/config/vitest.config.ts';

/** Each SDK's oldest supported release, installed beside the newest under an npm alias. */
export const OLDEST_SDKS: Record<string, string> = {
  ai: 'ai-oldest',
  openai: 'openai-oldest',
  '@openai/agents': 'openai-agents-oldest',
  '@anthropic-ai/sdk': 'anthropic-oldest',
  '@langchain/core': 'langchain-core-oldest',
};

/** The tests that drive an SDK: they run twice, over the newest and over the oldest releases. */
const SDK_TESTS = ['src/*.sdk.test.ts'];

// Some SDK dependencies (eventsource-parser under `ai`, eventsource under the MCP SDK of
// `@openai/agents`) publish their TypeScript sources under the `source` export condition this
// workspace resolves with; inlining lets vite transpile them instead of Node failing on a `.ts` file.
const inline = ['ai', 'ai-oldest', /@ai-sdk\//, /\/@openai\/agents/, /@modelcontextprotocol\//, /eventsource/];

/** `name` and `name/sub` to the oldest release's alias, everywhere vite resolves (tests and sources). */
const toOldest = Object.entries(OLDEST_SDKS).map(([name, alias]) => ({
  find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}(?=/|$)`),
  replacement: alias,
}));

// Inlined packages whose source maps name files they do not ship would warn on every run.
const shared = mergeConfig(base, defineConfig({ logLevel: 'error', test: { server: { deps: { inline } } } }));

export default defineConfig({
  test: {
    projects: [
      { ...shared, test: { ...shared.test, name: 'newest' } },
      { ...shared, resolve: { ...shared.resolve, alias: toOldest }, test: { ...shared.test, name: 'oldest', include: SDK_TESTS } },
    ],
  },
});
