// The layering of the workspace, checked by `pnpm lint` (dependency-cruiser). Every rule is written
// from the folder layout; the order of the layers is stated once, in LAYERS, and the allowed set of
// each package is computed from it.

/** Bottom first: a package may import only the packages listed before it. */
const LAYERS = ['core', 'grammar', 'fuzzy', 'planner', 'snapshot', 'apply', 'lsp', 'formatter', 'tool'];

/** The apps, side by side on top of every layer. */
const APPS = ['cli', 'adapters', 'mcp'];

/** Agent SDKs (package-name patterns): only apps/adapters (and apps/mcp, the MCP SDK) may import them, so no other install pulls one in. */
const AGENT_SDKS = [
  'ai',
  'openai',
  '@openai/agents',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  '@langchain/[^/]+',
];

/** What apps/mcp may not import: every agent SDK but MCP's. */
const OTHER_SDKS = AGENT_SDKS.filter((sdk) => sdk !== '@modelcontextprotocol/sdk');

const packageDir = (name) => `^packages/${name}/`;
// An import by name that did not resolve (an undeclared dependency) is judged by its name too.
const packageName = (name) => `^@patchsmith/${name}(?:/|$)`;

/** One rule per layer: what it may import is itself and everything below it. */
const layerRules = LAYERS.map((name, index) => ({
  name: 'layer-order',
  comment: `@patchsmith/${name} may import only ${LAYERS.slice(0, index).join(', ') || 'no package of ours'} (layers: ${LAYERS.join(' → ')})`,
  severity: 'error',
  from: { path: packageDir(name) },
  to: {
    path: ['^packages/', '^@patchsmith/'],
    pathNot: [
      ...LAYERS.slice(0, index + 1).flatMap((below) => [packageDir(below), packageName(below)]),
      ...APPS.map(packageName),
    ],
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-package-imports-app',
      comment: 'packages stand under the apps; an app is never a dependency of a package',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: ['^apps/', ...APPS.map(packageName)] },
    },
    {
      name: 'no-static-app-to-app',
      comment:
        'apps stand side by side: one may load another only lazily (a dynamic import of an optional dependency)',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/', dynamic: false },
    },
    {
      name: 'no-deep-import',
      comment:
        'between workspace packages only the public entry point (src/index.ts) is imported, never @patchsmith/x/sub or a relative path into another package',
      severity: 'error',
      from: { path: '^((?:packages|apps)/[^/]+)/' },
      to: {
        path: ['^(?:packages|apps)/[^/]+/', '^@patchsmith/[^/]+/'],
        pathNot: [
          '^$1/',
          '^(?:packages|apps)/[^/]+/src/index\\.ts$',
        ],
      },
    },
    {
      name: 'no-circular',
      comment: 'no import cycles, inside a package or across packages',
      severity: 'error',
      from: { path: '^(?:packages|apps)/' },
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment:
        'every import resolves from the importing package (pnpm links only what its package.json declares): an undeclared dependency would slip past every other rule',
      severity: 'error',
      from: { path: '^(?:packages|apps|tooling)/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-agent-sdk',
      comment: `only apps/adapters imports an agent SDK (${AGENT_SDKS.join(', ')})`,
      severity: 'error',
      from: { path: '^(?:packages|apps|tooling)/', pathNot: ['^apps/adapters/', '^apps/mcp/'] },
      to: {
        path: [`^(?:${AGENT_SDKS.join('|')})(?:/|$)`, `(?:^|/)node_modules/(?:${AGENT_SDKS.join('|')})/`],
      },
    },
    {
      name: 'mcp-server-sdk-only',
      comment: 'apps/mcp imports the MCP SDK and no other agent SDK',
      severity: 'error',
      from: { path: '^apps/mcp/' },
      to: {
        // The bare name when it does not resolve, else its folder in node_modules (pnpm's .pnpm store too).
        path: [`^(?:${OTHER_SDKS.join('|')})(?:/|$)`, `(?:^|/)node_modules/(?:${OTHER_SDKS.join('|')})/`],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The fixture breaks every rule on purpose; its test cruises a copy of it.
    exclude: { path: ['(^|/)dist/', '(^|/)src/generated/', '^tooling/fixtures/'] },
    // Type-only imports count: a type is an import of the package all the same.
    tsPreCompilationDeps: true,
    // Workspace packages resolve to their source (the `source` export condition), as tests do.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'types', 'node', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
  },
};
