import { expect, it } from 'vitest';

it('exports exactly the public API from the main entry', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toEqual([
    'TEXT_EDITOR_TOOL',
    'createOpenAIEditor',
    'createPermissionGate',
    'createTextEditorRunnableTool',
    'handleApplyPatchCall',
    'handleTextEditorCommand',
    'loadPolicy',
    'operationToPatch',
    'runApplyPatchOperation',
  ]);
});

it('exports the Vercel AI SDK tools from the vercel entry', async () => {
  expect(Object.keys(await import('./vercel.js')).sort()).toEqual(['createVercelTools']);
});

it('loads no optional SDK at run time from the main entry', async () => {
  const { readFile } = await import('node:fs/promises');
  const { readdir } = await import('node:fs/promises');
  const optional = ['@anthropic-ai/sdk', '@openai/agents', 'openai', 'ai'];
  const sources = (await readdir(new URL('.', import.meta.url))).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('vercel'),
  );
  for (const file of sources) {
    const text = await readFile(new URL(file, import.meta.url), 'utf8');
    for (const name of optional) {
      // Only `import type` may name an optional peer outside the vercel entry.
      const runtimeImport = new RegExp(`^import (?!type )[^;]*from '${name}(/[^']*)?';`, 'm');
      expect(runtimeImport.test(text), `${file} imports ${name} at run time`).toBe(false);
    }
  }
});
