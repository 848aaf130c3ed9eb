import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findDependents } from './dependents.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-dependents-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function files(tree: Record<string, string>) {
  for (const [name, text] of Object.entries(tree)) {
    await mkdir(join(root, name, '..'), { recursive: true });
    await writeFile(join(root, name), text);
  }
}

describe('findDependents: the files that import an edited one', () => {
  it('follows relative script imports in every spelling, and nothing else', async () => {
    await files({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': "import { a } from './a';\n",
      'src/c.tsx': "export * from './a.js';\n",
      'lib/d.mjs': "const m = await import('../src/a');\n",
      'lib/e.cjs': "const { a } = require('../src/a.ts');\n",
      'src/f.ts':
        "import { a } from 'a';\nimport { b } from './ab';\n// from './a' in a comment still counts: a hint, not a parser\n",
      'src/g.ts': "import { x } from './other';\n",
      'node_modules/h/index.ts': "import { a } from '../../src/a';\n",
      'src/dir/index.ts': 'export const i = 1;\n',
      'src/j.ts': "import { i } from './dir';\n",
    });
    const found = await findDependents([join(root, 'src/a.ts')], ['.ts', '.tsx', '.mjs', '.cjs'], root);
    expect(found.map((f) => f.slice(root.length + 1)).sort()).toEqual([
      'lib/d.mjs',
      'lib/e.cjs',
      'src/b.ts',
      'src/c.tsx',
      'src/f.ts',
    ]);
    const byFolder = await findDependents([join(root, 'src/dir/index.ts')], ['.ts'], root);
    expect(byFolder.map((f) => f.slice(root.length + 1))).toEqual(['src/j.ts']);
  });

  it('follows Python imports: absolute from the project root, relative, and `from pkg import mod`', async () => {
    await files({
      'pkg/__init__.py': '',
      'pkg/mod.py': 'def foo(): return 1\n',
      'main.py': 'from pkg.mod import foo\n',
      'pkg/sibling.py': 'from .mod import foo\n',
      'pkg/star.py': 'from . import mod\n',
      'other.py': 'import pkg.mod as m\n',
      'unrelated.py': 'import os\nfrom pkg import other\n',
    });
    const found = await findDependents([join(root, 'pkg/mod.py')], ['.py'], root);
    expect(found.map((f) => f.slice(root.length + 1)).sort()).toEqual([
      'main.py',
      'other.py',
      'pkg/sibling.py',
      'pkg/star.py',
    ]);
  });

  it('never follows a symlink out of the project, nor reads a FIFO', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'patchsmith-outside-'));
    try {
      await files({ 'a.ts': 'export const a = 1;\n' });
      await writeFile(join(outside, 'x.ts'), "import { a } from './a';\n");
      await symlink(outside, join(root, 'linked'));
      await symlink(join(outside, 'x.ts'), join(root, 'x.ts'));
      const { execFileSync } = await import('node:child_process');
      execFileSync('mkfifo', [join(root, 'fifo.ts')]);
      expect(await findDependents([join(root, 'a.ts')], ['.ts'], root)).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
