/**
 * Every package and app README has the same outline, so a reader finds the same thing in the same
 * place in each (issue: "every package README in the same outline").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUTLINE = ['What it is', 'When to use it', 'Install', 'Use', 'API', 'Errors', 'Notes'];

const readmes = execFileSync('git', ['ls-files', '--', ':(glob)packages/*/README.md', ':(glob)apps/*/README.md'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

describe('package READMEs', () => {
  it('are found: one per package and app', () => {
    expect(readmes.length).toBeGreaterThanOrEqual(12);
  });

  it.each(readmes)('%s has the common outline, in order', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
    expect(headings).toEqual(OUTLINE);
  });
});
