import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { gitBlobId, isNullBlobId } from './git-blob.js';

it('names content the way git hash-object does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'patchsmith-blob-'));
  try {
    const samples = [
      new Uint8Array(0),
      new TextEncoder().encode('hello\n'),
      Uint8Array.from([0, 255, 10, 13, 0]),
    ];
    for (const bytes of samples) {
      const file = join(dir, 'f');
      writeFileSync(file, bytes);
      const expected = execFileSync('git', ['hash-object', file], { encoding: 'utf8' }).trim();
      expect(gitBlobId(bytes)).toBe(expected);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('tells the null id from a real one', () => {
  expect(isNullBlobId('0000000')).toBe(true);
  expect(isNullBlobId('0'.repeat(40))).toBe(true);
  expect(isNullBlobId('e69de29')).toBe(false);
});
