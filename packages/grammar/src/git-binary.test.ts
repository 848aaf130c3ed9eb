/**
 * `GIT binary patch` sections as `git diff --binary` writes them (made by the git CLI in a temp
 * repository), and every way their data can be malformed: each a PARSE_ERROR naming its line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { type BinaryPatch, gitBlobId } from '@patchsmith/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBase85Line } from './git-binary.js';
import { parseUnified } from './parse-unified.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';

/** git's encoding of one line (base85.c's encode_85 with its length letter): the inverse under test. */
function encodeLine(bytes: Uint8Array): string {
  let out =
    bytes.length <= 26 ? String.fromCharCode(64 + bytes.length) : String.fromCharCode(96 + bytes.length - 26);
  for (let i = 0; i < bytes.length; i += 4) {
    let value = 0;
    for (let k = 0; k < 4; k++) value = value * 256 + (bytes[i + k] ?? 0);
    const group: string[] = [];
    for (let k = 0; k < 5; k++) {
      group.unshift(ALPHABET[value % 85]!);
      value = Math.floor(value / 85);
    }
    out += group.join('');
  }
  return out;
}

/** A hunk's lines: header, base85 lines of at most 52 bytes of the deflated data, empty line. */
function hunk(
  method: 'literal' | 'delta',
  data: Uint8Array,
  deflated: Uint8Array = deflateSync(data),
): string {
  const lines = [`${method} ${data.length}`];
  for (let i = 0; i < deflated.length; i += 52) lines.push(encodeLine(deflated.subarray(i, i + 52)));
  return `${lines.join('\n')}\n\n`;
}

const bytes = (...values: number[]) => Uint8Array.from(values);
const header = (index = true) =>
  `diff --git a/f.bin b/f.bin\n${index ? 'index 1111111..2222222 100644\n' : ''}GIT binary patch\n`;

function parsedBinary(text: string): BinaryPatch {
  const parsed = parseUnified(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const op = parsed.value.operations[0]!;
  if (op.kind !== 'binary') throw new Error(`not binary: ${op.kind}`);
  return op;
}

function parseErrorOf(text: string) {
  const parsed = parseUnified(text);
  expect(parsed.ok).toBe(false);
  if (parsed.ok) throw new Error('parsed');
  expect(parsed.errors[0]!.code).toBe('PARSE_ERROR');
  return parsed.errors[0]!;
}

describe('base85 lines', () => {
  it('decodes what git encodes, for every length a line can have', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 52 }), (data) => {
        expect(decodeBase85Line(encodeLine(data))).toEqual(data);
      }),
    );
  });

  it('says what is wrong with a malformed line', () => {
    expect(decodeBase85Line('5abcde')).toMatch(/length letter/);
    expect(decodeBase85Line('Babcd')).toMatch(/has 5 base85 characters, this one 4/);
    expect(decodeBase85Line('Aab"de')).toMatch(/not a base85 character/);
    expect(decodeBase85Line('A~~~~~')).toMatch(/overflows 32 bits/);
  });
});

describe('git diff --binary', () => {
  const repo = mkdtempSync(join(tmpdir(), 'patchsmith-gitbin-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
  const base = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251));
  base[0] = 0;
  git('init', '-q');
  writeFileSync(join(repo, 'a.bin'), base);
  writeFileSync(join(repo, 'gone.bin'), bytes(0, 1, 2, 3));
  git('add', '.');
  git('commit', '-qm', 'base');
  const edited = Buffer.concat([base.subarray(0, 1000), Buffer.from('inserted'), base.subarray(1000)]);
  writeFileSync(join(repo, 'a.bin'), edited);
  writeFileSync(join(repo, 'new.bin'), bytes(0, 9, 9, 9));
  git('rm', '-q', 'gone.bin');
  git('add', '.');
  const diff = git('diff', '--cached', '--binary').toString('utf8');

  it('reads a delta, a new file and a deleted file with both hunks and the full blob ids', () => {
    const parsed = parseUnified(diff);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const ops = parsed.value.operations as BinaryPatch[];
    expect(ops.map((op) => [op.kind, op.change, op.path])).toEqual([
      ['binary', 'update', 'a.bin'],
      ['binary', 'delete', 'gone.bin'],
      ['binary', 'add', 'new.bin'],
    ]);
    const [update, deleted, added] = ops as [BinaryPatch, BinaryPatch, BinaryPatch];
    expect(update.forward.method).toBe('delta');
    expect(update.oldId).toBe(gitBlobId(base));
    expect(update.newId).toBe(gitBlobId(edited));
    expect(update.reverse?.method).toBe('delta');
    expect(added.forward).toMatchObject({ method: 'literal', data: bytes(0, 9, 9, 9) });
    expect(added.reverse).toMatchObject({ method: 'literal', data: bytes() });
    expect(deleted.forward.data).toEqual(bytes());
    expect(deleted.reverse?.data).toEqual(bytes(0, 1, 2, 3));
    // Each hunk's line is its `literal`/`delta` header in the diff.
    const lines = diff.split('\n');
    for (const op of ops) expect(lines[op.forward.line - 1]).toMatch(/^(literal|delta) \d+$/);
  });

  it('reads a rename with a mode change and a CRLF-converted patch', () => {
    const text = `diff --git a/x.bin b/y.bin\nold mode 100644\nnew mode 100755\nsimilarity index 90%\nrename from x.bin\nrename to y.bin\n${header(true).split('\n').slice(1).join('\n')}${hunk('literal', bytes(1, 2))}`;
    const op = parsedBinary(text);
    expect(op).toMatchObject({ change: 'update', path: 'x.bin', movePath: 'y.bin', mode: 0o755 });
    expect(op.forward.data).toEqual(bytes(1, 2));
    expect(op.reverse).toBeUndefined();
    expect(parsedBinary(text.replace(/\n/g, '\r\n')).forward.data).toEqual(bytes(1, 2));
  });
});

describe('malformed binary patches are PARSE_ERROR values naming the line', () => {
  it('a bad base85 character', () => {
    const good = hunk('literal', bytes(0, 1, 2, 3, 4, 5));
    const bad = good.replace(/^(literal \d+\n.)(.)/, '$1"');
    const error = parseErrorOf(header() + bad);
    expect(error.line).toBe(5);
    expect(error.message).toMatch(/line 5: malformed binary patch data: .* is not a base85 character/);
  });

  it('a line whose length letter does not fit its characters', () => {
    const good = hunk('literal', bytes(0, 1, 2, 3, 4, 5));
    const error = parseErrorOf(header() + good.replace(/^(literal \d+\n)./, '$1Z'));
    expect(error).toMatchObject({ line: 5 });
    expect(error.message).toMatch(/base85 characters/);
  });

  it('data that is not zlib', () => {
    const error = parseErrorOf(header() + hunk('literal', bytes(1, 2, 3), bytes(1, 2, 3, 4, 5, 6, 7, 8)));
    expect(error).toMatchObject({ line: 4 });
    expect(error.message).toMatch(/is not a valid zlib stream/);
  });

  it('data that inflates to another size than its header says, a bomb included', () => {
    const short = hunk('literal', bytes(1, 2, 3)).replace('literal 3', 'literal 4');
    expect(parseErrorOf(header() + short).message).toMatch(/inflates to 3 bytes, not the 4/);
    const bomb = new Uint8Array(50_000_000);
    const text = hunk('literal', bomb).replace('literal 50000000', 'literal 10');
    expect(parseErrorOf(header() + text).message).toMatch(/inflates to more than the 10 bytes/);
  });

  it('a missing hunk, a hunk without data, an unknown method', () => {
    expect(parseErrorOf(header()).message).toMatch(
      /expected a binary hunk header .* found the end of the diff/,
    );
    expect(parseErrorOf(`${header()}literal 3\n\n`).message).toMatch(/is missing/);
    expect(parseErrorOf(`${header()}copy 3\n`).message).toMatch(/found "copy 3"/);
    expect(parseErrorOf(`${header()}literal 99999999999\nA00000\n`).message).toMatch(/larger than/);
  });

  it('an index line without two ids', () => {
    const text = `diff --git a/f.bin b/f.bin\nindex nonsense\nGIT binary patch\n${hunk('literal', bytes(1))}`;
    expect(parseErrorOf(text)).toMatchObject({ line: 2 });
  });

  it('a `Binary files … differ` line still carries nothing to apply', () => {
    const text =
      'diff --git a/f.bin b/f.bin\nindex 1111111..2222222 100644\nBinary files a/f.bin and b/f.bin differ\n';
    expect(parseErrorOf(text).message).toMatch(/git diff --binary/);
  });
});
