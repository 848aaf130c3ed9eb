import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { syncFs } from './sync-fs.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ps-sync-fs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("unlink (on the thread pool) removes files, many in flight, and rejects with Node's own code", async () => {
  const names = Array.from({ length: 64 }, (_, i) => join(dir, `f${i}`));
  for (const name of names) writeFileSync(name, 'x');
  await Promise.all(names.map((name) => syncFs.unlink(name)));
  expect(names.filter((name) => existsSync(name))).toEqual([]);
  await expect(syncFs.unlink(names[0]!)).rejects.toMatchObject({ code: 'ENOENT' });
  await expect(syncFs.unlink(dir)).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|EPERM)$/) });
});
