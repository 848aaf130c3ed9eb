import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPLY_PATCH_BIN, PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });
const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
const UPDATE_A = patch('*** Update File: a.txt', '@@', ' one', '-two', '+TWO');

async function initRepo() {
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  git('add', '.');
  git('commit', '-qm', 'init');
}

describe('patchsmith apply', () => {
  it('reads the patch from stdin, prints SPEC §5 lines, exits 0', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    const r = ps(['apply'], UPDATE_A);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Patch applied\.\n\[M\] a\.txt \(\+1 -1\)\n/);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('--check plans only; --json prints the SPEC document', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    const r = ps(['apply', '-', '--check', '--json'], UPDATE_A);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: true, dryRun: true, snapshot: null, errors: [] });
    expect(doc.files[0]).toMatchObject({ path: 'a.txt', op: 'update', additions: 1, deletions: 1 });
    expect(doc.files[0].diff).toContain('-two\n+TWO');
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('reports every failing chunk with its nearest region and exits 1, writing nothing', async () => {
    await writeFile(join(dir, 'a.txt'), 'alpha\nbeta\ngamma\n');
    await writeFile(join(dir, 'b.txt'), 'x\n');
    const bad = patch(
      '*** Update File: a.txt',
      '@@',
      '-betta',
      '+BETA',
      '*** Update File: b.txt',
      '@@',
      '-nothing here',
      '+y',
      '*** Add File: c.txt',
      '+c',
    );
    const r = ps(['apply', '--json'], bad);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)).toEqual([
      'NO_MATCH a.txt',
      'NO_MATCH b.txt',
    ]);
    expect(doc.errors[0].nearest).toMatchObject({ startLine: 2, endLine: 2 });
    await expect(stat(join(dir, 'c.txt'))).rejects.toThrow(/ENOENT/);
    const human = ps(['apply'], bad);
    expect(human.stderr).toContain('nearest region: lines 2-2');
    expect(human.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses an ambiguous chunk unless --first-match', async () => {
    await writeFile(join(dir, 'a.txt'), 'x\ny\nx\ny\n');
    const p = patch('*** Update File: a.txt', '@@', ' x', '-y', '+Y');
    const r = ps(['apply', '--json'], p);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).errors[0]).toMatchObject({ code: 'AMBIGUOUS', candidates: [1, 3] });
    expect(ps(['apply', '--first-match'], p).status).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('x\nY\nx\ny\n');
  });

  it('exits 2 on usage errors, never with a stack trace', () => {
    for (const args of [
      ['frobnicate'],
      ['apply', '--bogus'],
      ['apply', 'a', 'b'],
      ['apply', '--format', 'xml'],
      [],
    ]) {
      const r = ps(args, UPDATE_A);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/usage|error/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(ps(['apply', 'missing.patch']).status).toBe(2);
  });

  it('refuses paths outside the root and in .git, writing nothing', async () => {
    for (const path of ['../escape.txt', '/etc/passwd-x', '.git/config']) {
      const r = ps(['apply', '--json'], patch(`*** Add File: ${path}`, '+x'));
      expect(r.status).toBe(1);
      expect(JSON.parse(r.stdout).errors[0].code).toMatch(/PATH_OUTSIDE_ROOT|PATH_INVALID/);
    }
  });
});

describe('snapshots, log and undo through the CLI', () => {
  it('apply snapshots in the repository without touching HEAD, index or status; undo restores', async () => {
    await initRepo();
    await writeFile(join(dir, 'untracked.txt'), 'u\n');
    const head = git('rev-parse', 'HEAD');
    const status = git('status', '--porcelain');
    const r = ps(['apply'], UPDATE_A);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/snapshot \S+/);
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('status', '--porcelain')).toBe(' M a.txt\n' + status);
    expect(git('for-each-ref', '--format=%(refname)', 'refs/patchsmith/')).toMatch(
      /^refs\/patchsmith\/snapshots\//,
    );
    git('fsck', '--no-progress');
    expect(ps(['log']).stdout).toMatch(/^\* \d{8}-\d{6}-\w+  applied  .*\n      M a\.txt\n$/);
    const undo = ps(['undo']);
    expect(undo.status).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(git('status', '--porcelain')).toBe(status);
  });

  it('undo refuses, naming the file, after a hand edit; --force overrides', async () => {
    await initRepo();
    expect(ps(['apply'], UPDATE_A).status).toBe(0);
    await writeFile(join(dir, 'a.txt'), 'hand edit\n');
    const refused = ps(['undo']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('a.txt');
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('hand edit\n');
    expect(ps(['undo', '--force']).status).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });
});

describe('undo is an edit like any other', () => {
  const rules = (permissions: unknown[]) =>
    writeFile(join(dir, '.patchsmith.json'), JSON.stringify({ permissions }));

  it('a deny rule added after the apply refuses the undo, --force or not, leaving a later hand edit', async () => {
    await initRepo();
    expect(ps(['apply'], UPDATE_A).status).toBe(0);
    await rules([{ match: 'a.txt', action: 'deny' }]);
    const plain = ps(['undo']);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toContain('DENIED');
    await writeFile(join(dir, 'a.txt'), 'hand edit\n');
    const forced = ps(['undo', '--force', '--yes']);
    expect(forced.status).toBe(1);
    expect(forced.stderr).toContain('Permission denied: a.txt');
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('hand edit\n');
  });

  it('an ask rule is refused with no one to ask, and --yes answers it', async () => {
    await initRepo();
    expect(ps(['apply'], UPDATE_A).status).toBe(0);
    await rules([{ match: 'a.txt', action: 'ask' }]);
    expect(ps(['undo']).status).toBe(1);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(ps(['undo', '--yes']).status).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('a broken snapshot store refuses the apply before writing, and log says the store is broken', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    await mkdir(join(dir, '.patchsmith', 'snapshots.git'), { recursive: true });
    await writeFile(join(dir, '.patchsmith', 'snapshots.git', 'config'), '');
    const r = ps(['apply'], UPDATE_A);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('undo');
    expect(r.stderr).toContain('STATE_INVALID: no snapshot could be recorded');
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    const log = ps(['log']);
    expect(log.status).toBe(1);
    expect(log.stderr).toContain('is broken');
    expect(ps(['apply', '--no-snapshot'], UPDATE_A).status).toBe(0);
  });
});

describe('apply_patch alias', () => {
  it('prints the reference summary and honours APPLY_PATCH_FIRST_MATCH', async () => {
    await writeFile(join(dir, 'a.txt'), 'x\ny\nx\ny\n');
    const p = patch('*** Update File: a.txt', '@@', ' x', '-y', '+Y');
    const refused = runBin(APPLY_PATCH_BIN, [p], { cwd: dir });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('AMBIGUOUS');
    const ok = runBin(APPLY_PATCH_BIN, [], { cwd: dir, input: p, env: { APPLY_PATCH_FIRST_MATCH: '1' } });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('Success. Updated the following files:\nM a.txt\n');
  });

  it('exits 2 when given two arguments', () => {
    expect(runBin(APPLY_PATCH_BIN, ['a', 'b'], { cwd: dir }).status).toBe(2);
  });
});

describe('permission', () => {
  const ADD_SECRET = patch('*** Add File: secret/key.txt', '+k', '*** Add File: open.txt', '+o');

  it('a deny rule refuses the whole patch, naming the path and the rule', async () => {
    await writeFile(
      join(dir, '.patchsmith.json'),
      '{"permissions": [{"match": "secret/**", "action": "deny"}]}',
    );
    const r = ps(['apply', '--json'], ADD_SECRET);
    expect(r.status).toBe(1);
    const error = JSON.parse(r.stdout).errors[0];
    expect(error.code).toBe('DENIED');
    expect(error.message).toContain('secret/key.txt');
    expect(error.message).toContain('"secret/**"');
    await expect(stat(join(dir, 'open.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('an ask rule with nobody to ask is DENIED with a message that says how to allow it; --yes allows it', async () => {
    await writeFile(
      join(dir, '.patchsmith.json'),
      '{"permissions": [{"match": "secret/**", "action": "ask"}]}',
    );
    const r = ps(['apply', '--json'], ADD_SECRET);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).errors[0].message).toMatch(/To allow it, add a rule/);
    expect(ps(['apply', '--yes'], ADD_SECRET).status).toBe(0);
    expect(await readFile(join(dir, 'secret/key.txt'), 'utf8')).toBe('k\n');
  });

  it('--confirm shows the diff and reads scripted answers: no writes nothing, yes applies', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    await writeFile(join(dir, 'fix.patch'), UPDATE_A);
    const refused = ps(['apply', 'fix.patch', '--confirm'], 'n\n');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('-two\n+TWO');
    expect(refused.stderr).toContain('[y]es / [n]o / [a]lways for these paths / [c]ancel');
    expect(refused.stderr).toContain('DENIED');
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    const unclear = ps(['apply', 'fix.patch', '--confirm'], 'maybe\ny\n');
    expect(unclear.status).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('a broken config is a PARSE_ERROR naming the file, not a crash', async () => {
    await writeFile(join(dir, '.patchsmith.json'), '{"permission": []}');
    const r = ps(['apply'], ADD_SECRET);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PARSE_ERROR');
    expect(r.stderr).toContain('.patchsmith.json');
  });
});

describe('every input format through the CLI', () => {
  beforeEach(async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  });

  it('detects a unified diff', async () => {
    const diff = ['--- a/a.txt', '+++ b/a.txt', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three', ''].join(
      '\n',
    );
    const r = ps(['apply'], diff);
    expect(r.status, r.stderr).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('detects SEARCH/REPLACE blocks', async () => {
    const blocks = ['a.txt', '<<<<<<< SEARCH', 'two', '=======', 'TWO', '>>>>>>> REPLACE', ''].join('\n');
    expect(ps(['apply'], blocks).status).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('takes str_replace JSON (auto-detected or --format str_replace), writing $& literally', async () => {
    const edit = JSON.stringify({ command: 'str_replace', path: 'a.txt', old_str: 'two', new_str: '$& $$' });
    expect(ps(['apply'], edit).status).toBe(0);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\n$& $$\nthree\n');
    const same = JSON.stringify([{ command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'one' }]);
    const r = ps(['apply', '--format', 'str_replace', '--json'], same);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).errors[0].code).toBe('INVALID_EDIT');
    const broken = ps(['apply', '--format', 'str_replace'], '{not json');
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('PARSE_ERROR');
  });

  it('patchsmith diff prints any plan as a git diff that git apply accepts, writing nothing', async () => {
    git('init', '-q');
    const blocks = ['a.txt', '<<<<<<< SEARCH', 'two', '=======', 'TWO', '>>>>>>> REPLACE', ''].join('\n');
    const r = ps(['diff'], blocks);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
    );
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    execFileSync('git', ['apply', '-'], { cwd: dir, input: r.stdout });
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });
});

describe('--diagnostics through the CLI (real typescript-language-server)', () => {
  it('reports the type error the edit introduced, then exits by itself', async () => {
    await writeFile(join(dir, 'tsconfig.json'), '{"compilerOptions": {"strict": true}}');
    await writeFile(join(dir, 'a.ts'), 'export const n: number = 1;\n');
    const p = patch(
      '*** Update File: a.ts',
      '@@',
      '-export const n: number = 1;',
      '+export const n: number = "one";',
    );
    // A leftover timer or server would keep the process alive: the spawn's own limit would end it.
    const r = spawnSync(process.execPath, [PATCHSMITH_BIN, 'apply', '--diagnostics', '--json'], {
      cwd: dir,
      input: p,
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.diagnostics).toEqual([
      expect.objectContaining({
        path: 'a.ts',
        status: 'ok',
        diagnostics: [
          expect.objectContaining({
            range: expect.objectContaining({ start: { line: 0, character: 13 } }),
            message: "Type 'string' is not assignable to type 'number'.",
          }),
        ],
      }),
    ]);
  }, 30_000);
});
