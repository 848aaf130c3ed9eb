import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetStatMemo, memoByStat } from './stat-memo.js';

let dir: string;
let file: string;
let reads: number;
/** The memo of `file`, counting the reads it makes; the value is the file's text in an object. */
const load = () =>
  memoByStat(file, {
    read: async () => {
      reads++;
      return { text: await readFile(file, 'utf8') };
    },
    absent: () => ({ text: '(absent)' }),
  });
/** Long enough for the file system's timestamp tick (a jiffy at most) to move on. */
const nextTick = () => new Promise((done) => setTimeout(done, 30));
/** The clock an hour on: the file's last change is then long past, so a read of it is kept. */
const later = () => vi.setSystemTime(Date.now() + 3_600_000);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patchsmith-stat-memo-'));
  file = join(dir, 'config.json');
  reads = 0;
  forgetStatMemo();
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

describe('memoByStat', () => {
  it('reads a file changed just now at every call (a change in the same tick would not show in stat)', async () => {
    await writeFile(file, 'one');
    expect(await load()).toEqual({ text: 'one' });
    expect(await load()).toEqual({ text: 'one' });
    expect(reads).toBe(2);
  });

  it('keeps what it read of a file unchanged for a while, and hands out copies', async () => {
    await writeFile(file, 'one');
    later();
    const first = await load();
    first.text = 'changed by the caller';
    expect(await load()).toEqual({ text: 'one' });
    expect(reads).toBe(1);
  });

  it('sees a write in place that keeps the size and puts the old mtime back (ctime moves)', async () => {
    await writeFile(file, 'one');
    const { atime, mtime } = await stat(file);
    later();
    expect(await load()).toEqual({ text: 'one' });
    await nextTick();
    await writeFile(file, 'two');
    await utimes(file, atime, mtime);
    expect(await load()).toEqual({ text: 'two' });
    expect(reads).toBe(2);
  });

  it('sees another file renamed over the name, and a file removed then made again', async () => {
    await writeFile(file, 'one');
    await writeFile(join(dir, 'other'), 'uno');
    later();
    expect(await load()).toEqual({ text: 'one' });
    await rename(join(dir, 'other'), file);
    expect(await load()).toEqual({ text: 'uno' });
    await rm(file);
    expect(await load()).toEqual({ text: '(absent)' });
    await writeFile(file, 'three');
    expect(await load()).toEqual({ text: 'three' });
    expect(reads).toBe(3);
  });

  it('keeps nothing of what is not a regular file', async () => {
    await mkdir(file);
    later();
    const folder = () =>
      memoByStat(file, {
        read: async () => ++reads,
        absent: () => 0,
      });
    await folder();
    await folder();
    expect(reads).toBe(2);
  });

  it('reads again after a chmod (ctime moves, the content may now be unreadable)', async () => {
    await writeFile(file, 'one');
    later();
    await load();
    await nextTick();
    await chmod(file, 0o600);
    await load();
    expect(reads).toBe(2);
  });
});
