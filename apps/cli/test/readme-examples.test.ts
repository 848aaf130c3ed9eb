/** The root README's shell examples (each marked `<!-- readme-example -->`) run as shown, through the built bin. */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN } from './bins.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const MARKER = '<!-- readme-example -->';

/** Each marked example: the `sh` block after the marker, and the `text` block after it (what it prints). */
function examples(markdown: string): Array<{ script: string; output: string }> {
  return markdown
    .split(MARKER)
    .slice(1)
    .map((part) => {
      const blocks = [...part.matchAll(/```(\w+)\n([\s\S]*?)```/g)];
      const script = blocks[0];
      const output = blocks[1];
      if (script?.[1] !== 'sh' || output?.[1] !== 'text')
        throw new Error(`example without sh and text blocks:\n${part.slice(0, 200)}`);
      return { script: script[2] as string, output: output[2] as string };
    });
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('README examples', async () => {
  const found = examples(await readFile(README, 'utf8'));

  it('finds the examples (the check can fail)', () => {
    expect(found.length).toBeGreaterThanOrEqual(2);
  });

  it.each(found.map((e, k) => [k + 1, e] as const))(
    'example %i prints what the README shows',
    async (_, example) => {
      const dir = await mkdtemp(join(tmpdir(), 'patchsmith-readme-'));
      dirs.push(dir);
      // `patchsmith` on PATH is the built bin, as after installing the CLI.
      const bin = join(dir, '.bin');
      await mkdir(bin);
      await writeFile(
        join(bin, 'patchsmith'),
        `#!/bin/sh\nexec "${process.execPath}" "${PATCHSMITH_BIN}" "$@"\n`,
      );
      await chmod(join(bin, 'patchsmith'), 0o755);
      const work = join(dir, 'work');
      await mkdir(work);
      const r = spawnSync('bash', ['-c', `exec 2>&1\n${example.script}`], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', PATH: `${bin}:${process.env.PATH}` },
      });
      expect(r.stdout).toBe(example.output);
    },
  );
});
