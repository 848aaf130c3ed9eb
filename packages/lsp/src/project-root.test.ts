import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findProjectRoot } from './project-root.js';
import { tempProject } from './test-support/helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('findProjectRoot', () => {
  it('finds the nearest folder holding a marker', async () => {
    const root = await tempProject('root', {
      'tsconfig.json': '{}',
      'pkg/a/tsconfig.json': '{}',
      'pkg/a/src/x.ts': '',
    });
    dirs.push(root);
    expect(findProjectRoot(path.join(root, 'pkg/a/src/x.ts'), ['tsconfig.json'], root)).toBe(
      path.join(root, 'pkg/a'),
    );
    expect(findProjectRoot(path.join(root, 'pkg/b.ts'), ['tsconfig.json'], root)).toBe(root);
  });

  it('does not climb above the session root, and falls back to it', async () => {
    const outer = await tempProject('outer', { 'package.json': '{}', 'inner/src/x.ts': '' });
    dirs.push(outer);
    const inner = path.join(outer, 'inner');
    expect(findProjectRoot(path.join(inner, 'src/x.ts'), ['package.json'], inner)).toBe(inner);
  });

  it('takes a folder named `..x` inside the root for what it is: inside', async () => {
    const outer = await tempProject('dots', { 'package.json': '{}', 'inner/..x/y.ts': '' });
    dirs.push(outer);
    const inner = path.join(outer, 'inner');
    expect(findProjectRoot(path.join(inner, '..x/y.ts'), ['package.json'], inner)).toBe(inner);
  });

  it('climbs freely for a file outside the session root', async () => {
    const other = await tempProject('other', { 'pyproject.toml': '', 'deep/er/x.py': '' });
    const root = await tempProject('session');
    dirs.push(other, root);
    expect(findProjectRoot(path.join(other, 'deep/er/x.py'), ['pyproject.toml'], root)).toBe(other);
    expect(findProjectRoot(path.join(other, 'deep/er/x.py'), ['no-such-marker'], root)).toBe(
      path.join(other, 'deep/er'),
    );
  });
});
