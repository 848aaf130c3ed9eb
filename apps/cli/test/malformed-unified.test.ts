import { spawnSync } from 'node:child_process';
/**
 * Never a silent success, through the real bins: malformed unified diffs of the tool's corpus and
 * patch bytes that are not UTF-8 exit 1 with the error on stderr (or `--json` with ok:false), and
 * the tree stays as it was.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASE_TREE, MALFORMED_CASES } from '../../../tooling/fixtures/malformed-unified/cases.js';
import { APPLY_PATCH_BIN, PATCHSMITH_BIN, runBin } from './bins.js';
import { readTree } from './tree.js';

const CORPUS = fileURLToPath(new URL('../../../tooling/fixtures/malformed-unified/', import.meta.url));
const CHOSEN = [
  'context-lost-space',
  'prose-between-hunks',
  'unprefixed-line-drops-additions',
  'git-partial-deletion',
  'git-plus-name-differs',
  'no-newline-contradicts-file',
  'no-op-hunk',
  'already-applied',
];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-cli-malformed-'));
  for (const [path, content] of Object.entries(BASE_TREE)) await writeFile(join(dir, path), content);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(MALFORMED_CASES.filter((c) => CHOSEN.includes(c.name)))('patchsmith apply $name', (c) => {
  it('exits 1 with the error on stderr, and --json says ok:false; the tree is unchanged', async () => {
    const patch = await readFile(join(CORPUS, `${c.name}.patch`));
    const before = await readTree(dir);
    const human = runBin(PATCHSMITH_BIN, ['apply'], { cwd: dir, input: patch });
    expect(human.status).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain(c.code);
    expect(human.stderr).toMatch(new RegExp(c.message.source.replace(/^\^/, '')));
    expect(human.stderr).not.toMatch(/\n\s+at /);
    await writeFile(join(dir, '..', `${c.name}-${process.pid}.patch`), patch);
    const json = runBin(
      PATCHSMITH_BIN,
      ['apply', join(dir, '..', `${c.name}-${process.pid}.patch`), '--json'],
      {
        cwd: dir,
      },
    );
    await rm(join(dir, '..', `${c.name}-${process.pid}.patch`));
    expect(json.status).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ ok: false, files: [], errors: [{ code: c.code }] });
    expect(doc.errors[0].line).toBe(c.line);
    const alias = runBin(APPLY_PATCH_BIN, [], { cwd: dir, input: patch });
    expect(alias.status).toBe(1);
    expect(alias.stdout).not.toMatch(/^Success/);
    expect(await readTree(dir)).toEqual(before);
  });
});

describe('patch bytes that are not UTF-8', () => {
  // `café` in Latin-1 on an added line: decoding it would write U+FFFD instead.
  const latin1 = Buffer.concat([
    Buffer.from('--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n+caf'),
    Buffer.from([0xe9]),
    Buffer.from('\n b\n c\n'),
  ]);

  it('are refused from stdin and from a file, naming line and byte offset; --json says ok:false', async () => {
    const before = await readTree(dir);
    const stdin = runBin(PATCHSMITH_BIN, ['apply'], { cwd: dir, input: latin1 });
    expect(stdin.status).toBe(1);
    expect(stdin.stderr).toMatch(/PARSE_ERROR/);
    expect(stdin.stderr).toMatch(/not valid UTF-8 at line 5 \(byte offset 39 of the input, byte 0xe9\)/);
    const file = join(dir, '..', `latin1-${process.pid}.patch`);
    await writeFile(file, latin1);
    const json = runBin(PATCHSMITH_BIN, ['apply', file, '--json'], { cwd: dir });
    const check = runBin(PATCHSMITH_BIN, ['apply', file, '--check'], { cwd: dir });
    const diff = runBin(PATCHSMITH_BIN, ['diff', file], { cwd: dir });
    await rm(file);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, errors: [{ code: 'PARSE_ERROR', line: 5 }] });
    expect([check.status, diff.status]).toStrictEqual([1, 1]);
    const alias = runBin(APPLY_PATCH_BIN, [], { cwd: dir, input: latin1 });
    expect(alias.status).toBe(1);
    expect(alias.stderr).toMatch(/not valid UTF-8 at line 5/);
    expect(await readTree(dir)).toEqual(before);
  });

  it('are refused as the apply_patch argument too (the OS passes bytes Node would replace)', async () => {
    const before = await readTree(dir);
    // bash's printf hands the raw 0xe9 byte to the process; Node alone can only pass UTF-8 strings.
    const script = `exec "${process.execPath}" "${APPLY_PATCH_BIN}" "$(printf '*** Begin Patch\\n*** Update File: f\\n@@\\n-a\\n+caf\\xe9\\n*** End Patch')"`;
    const r = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).not.toMatch(/^Success/);
    expect(r.stderr).toMatch(/not valid UTF-8 at line 5/);
    expect(await readTree(dir)).toEqual(before);
    const valid = script.replace('caf\\xe9', 'caf\\xc3\\xa9');
    const ok = spawnSync('bash', ['-c', valid], { cwd: dir, encoding: 'utf8' });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(await readFile(join(dir, 'f'))).toEqual(Buffer.from('café\nb\nc\n'));
  });

  it('valid UTF-8 (and a BOM) still applies, byte for byte', async () => {
    const patch = Buffer.from('\ufeff--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n+café ✅\n b\n c\n');
    const r = runBin(PATCHSMITH_BIN, ['apply'], { cwd: dir, input: patch });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(await readFile(join(dir, 'f'))).toEqual(Buffer.from('café ✅\nb\nc\n'));
  });
});
