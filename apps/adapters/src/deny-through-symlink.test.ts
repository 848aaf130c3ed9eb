import { lstat, readdir, readFile, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import { handleTextEditorCommand } from './anthropic-text-editor.js';
import { handleApplyPatchCall } from './openai-responses.js';
import { createVercelTools } from './vercel.js';

/**
 * A deny rule over `secrets/**` holds when the model writes through `docs/s`, a symlink to
 * `../secrets`, whichever adapter carries the edit: the host passes no gate of its own.
 */

type Project = Awaited<ReturnType<typeof tempProject>>;

let project: Project;
beforeEach(async () => {
  project = await tempProject({
    'secrets/key.txt': 'key\n',
    'docs/readme.md': 'readme\n',
    '.patchsmith.json': JSON.stringify({ permissions: [{ match: 'secrets/**', action: 'deny' }] }),
  });
  await symlink('../secrets', join(project.root, 'docs/s'));
});
afterEach(async () => {
  await project.remove();
});

const STEAL = '*** Begin Patch\n*** Update File: docs/s/key.txt\n@@\n-key\n+stolen\n*** End Patch\n';

/** Every entry of the project (links as their text), to show that nothing changed. */
async function entries(): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const name of (await readdir(project.root, { recursive: true })).sort()) {
    const path = join(project.root, name);
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) tree[name] = `link ${await readlink(path)}`;
    else tree[name] = stats.isDirectory() ? 'folder' : await readFile(path, 'utf8');
  }
  return tree;
}

/** Runs an adapter's edit and expects a refusal naming the real path, with the tree unchanged. */
async function expectRefused(run: () => Promise<string>) {
  const before = await entries();
  const text = await run();
  expect(text).toContain('DENIED');
  expect(text).toContain('docs/s/key.txt (real path secrets/key.txt)');
  expect(await entries()).toEqual(before);
}

describe('deny through a symlinked folder, per adapter', () => {
  it('the Anthropic text editor', async () => {
    await expectRefused(async () => {
      const result = await handleTextEditorCommand(
        { command: 'str_replace', path: 'docs/s/key.txt', old_str: 'key', new_str: 'stolen' },
        { root: project.root },
      );
      expect(result.isError).toBe(true);
      return String(result.content);
    });
  });

  it('the OpenAI apply_patch call', async () => {
    await expectRefused(async () => {
      const output = await handleApplyPatchCall(
        {
          call_id: 'call_1',
          operation: { type: 'update_file', path: 'docs/s/key.txt', diff: '@@\n-key\n+stolen\n' },
        },
        { root: project.root },
      );
      expect(output.status).toBe('failed');
      return output.output ?? '';
    });
  });

  it('the Vercel AI SDK apply_patch tool', async () => {
    const tools = createVercelTools({ root: project.root });
    await expectRefused(
      async () =>
        (await tools.apply_patch.execute!(
          { patch: STEAL, format: null },
          { toolCallId: 'call_1', messages: [], context: {} },
        )) as string,
    );
  });
});
