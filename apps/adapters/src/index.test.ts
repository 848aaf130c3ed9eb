import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

/** Each entry's run-time exports: a user of one SDK imports only that SDK's entry. */
const ENTRIES: Record<string, string[]> = {
  index: ['createPermissionGate', 'loadPolicy', 'operationToPatch', 'runApplyPatchOperation'],
  openai: ['handleApplyPatchCall', 'runApplyPatchOperation'],
  'openai-agents': ['createOpenAIEditor'],
  anthropic: ['TEXT_EDITOR_TOOL', 'createTextEditorRunnableTool', 'handleTextEditorCommand'],
  vercel: ['createVercelTools', 'pendingPlan'],
  langchain: ['createLangChainTools'],
};

/** The one SDK each entry may name (in types or at run time); the main entry names none. */
const SDK_OF: Record<string, string | null> = {
  index: null,
  openai: 'openai',
  'openai-agents': '@openai/agents',
  anthropic: '@anthropic-ai/sdk',
  vercel: 'ai',
  langchain: '@langchain/core',
};
const SDKS = ['openai', '@openai/agents', '@anthropic-ai/sdk', 'ai', '@langchain/core'];

it.each(Object.entries(ENTRIES))('the %s entry exports exactly its API', async (entry, names) => {
  expect(Object.keys(await import(`./${entry}.ts`)).sort()).toEqual(names);
});

it('every entry is in package.json exports', async () => {
  const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  const subpaths = Object.keys(ENTRIES).map((e) => (e === 'index' ? '.' : `./${e}`));
  expect(Object.keys(manifest.exports).sort()).toEqual([...subpaths, './package.json'].sort());
});

/** The packages a source file imports (type-only or not), and the local files it imports. */
async function importsOf(file: string): Promise<{ packages: string[]; local: string[] }> {
  const text = await readFile(new URL(file, import.meta.url), 'utf8');
  const specifiers = [...text.matchAll(/^(?:import|export)\s[^;]*?from '([^']+)';/gms)].map((m) => m[1]!);
  return {
    packages: specifiers.filter((s) => !s.startsWith('.')),
    local: specifiers.filter((s) => s.startsWith('./')).map((s) => s.replace(/\.js$/, '.ts')),
  };
}

/** The SDKs an entry reaches through its local imports, transitively. */
async function sdksReached(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const sdks = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { packages, local } = await importsOf(file);
    for (const name of packages) {
      const sdk = SDKS.find((s) => name === s || name.startsWith(`${s}/`));
      if (sdk !== undefined) sdks.add(sdk);
    }
    for (const next of local) await visit(next);
  };
  await visit(`./${entry}.ts`);
  return sdks;
}

it.each(Object.entries(SDK_OF))('the %s entry needs no SDK but %s', async (entry, sdk) => {
  expect([...(await sdksReached(entry))]).toEqual(sdk === null ? [] : [sdk]);
});
