import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_TABLE } from '../src/command-table.js';
import { main } from '../src/patchsmith.js';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-habits-'));
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ps = (args: string[], input?: string, env?: NodeJS.ProcessEnv) =>
  runBin(PATCHSMITH_BIN, args, { cwd: dir, input, env });
const UPDATE = '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** End Patch\n';

/** Runs the CLI in-process with a terminal or not, to see what colour it chooses. */
async function inProcess(args: string[], env: NodeJS.ProcessEnv, isTTY: boolean, input: string) {
  let stdout = '';
  const { Readable } = await import('node:stream');
  const status = await main(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: () => {},
    stdin: Readable.from([input]),
    env,
    cwd: dir,
    isTTY,
  });
  return { status, stdout };
}

describe('the habits of git and ripgrep', () => {
  it('--version and -V print the package version', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-V'])
      expect(ps([flag])).toMatchObject({ status: 0, stdout: `patchsmith ${version}\n` });
  });

  it.each(COMMAND_TABLE.map((c) => c.name))(
    'patchsmith %s --help prints that command’s flags and an example',
    (name) => {
      const help = ps([name, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatchSnapshot();
      expect(ps(['help', name]).stdout).toBe(help.stdout);
    },
  );

  it('the global help lists every command', () => {
    const help = ps(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatchSnapshot();
    expect(ps([])).toMatchObject({ status: 2, stderr: help.stdout });
  });

  it('a mistyped command, flag, choice or input file gets "did you mean"', () => {
    expect(ps(['aply']).stderr).toBe(
      "error: unknown command 'aply' (did you mean apply?)\nrun patchsmith --help for usage\n",
    );
    expect(ps(['log', '--jsno'])).toMatchObject({
      status: 2,
      stderr: 'error: log: unknown flag --jsno (did you mean --json?)\nrun patchsmith log --help for usage\n',
    });
    expect(ps(['apply', '--firstmatch']).stderr).toContain('(did you mean --first-match?)');
    expect(ps(['apply', '--format', 'codec']).stderr).toContain('(did you mean codex?)');
    expect(ps(['apply', 'patch.dif']).stderr).toBe('error: cannot read patch.dif (ENOENT)\n');
    expect(ps(['completion', 'zhs']).stderr).toContain('(did you mean zsh?)');
  });

  it('an input file next to a similar name, and a patch path that is not there, get a hint', async () => {
    await writeFile(join(dir, 'change.patch'), UPDATE);
    expect(ps(['apply', 'change.pach']).stderr).toBe(
      'error: cannot read change.pach (ENOENT) (did you mean change.patch?)\n',
    );
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'main.ts'), 'x\n');
    const r = ps(['apply'], '*** Begin Patch\n*** Update File: main.ts\n@@\n-x\n+y\n*** End Patch\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /FILE_NOT_FOUND[\s\S]*\nhint: main\.ts does not exist; did you mean src\/main\.ts\?\n$/,
    );
  });

  it('--json on every command: one JSON document on stdout, refusals included', () => {
    for (const args of [['log'], ['undo', '--list'], ['recover'], ['gc', '--keep', '3'], ['diff']]) {
      const r = ps([...args, '--json'], UPDATE);
      expect(r.status, args.join(' ')).toBe(0);
      expect(() => JSON.parse(r.stdout), args.join(' ')).not.toThrow();
    }
    for (const args of [['undo'], ['redo'], ['forget', 'x'], ['apply']]) {
      const r = ps([...args, '--json'], '*** Begin Patch\n*** Delete File: nope\n*** End Patch\n');
      expect(r.status, args.join(' ')).toBe(1);
      expect(JSON.parse(r.stdout), args.join(' ')).toMatchObject({
        ok: false,
        errors: [{ code: expect.any(String) }],
      });
    }
  });

  it('--quiet prints nothing on success and still reports a refusal', async () => {
    expect(ps(['apply', '-q'], UPDATE)).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\n');
    const refused = ps(['apply', '--quiet'], UPDATE);
    expect(refused.status).toBe(1);
    expect(refused.stderr).not.toBe('');
  });

  it('colour only on a terminal, and never with NO_COLOR', async () => {
    const esc = '\u001b[';
    const patch = UPDATE;
    const colored = await inProcess(['check', '--diff'], {}, true, patch);
    expect(colored.stdout).toContain(esc);
    expect((await inProcess(['check', '--diff'], { NO_COLOR: '1' }, true, patch)).stdout).not.toContain(esc);
    expect((await inProcess(['check', '--diff'], {}, false, patch)).stdout).not.toContain(esc);
  });

  it.each(['bash', 'zsh', 'fish'])('completion %s prints a script that its shell parses', (shell) => {
    const r = ps(['completion', shell]);
    expect(r.status).toBe(0);
    for (const command of COMMAND_TABLE) expect(r.stdout).toContain(command.name);
    expect(r.stdout).toContain('first-match');
    const which = spawnSync('sh', ['-c', `command -v ${shell}`]);
    if (which.status !== 0) return; // the shell is not installed here: the script is still printed
    const parsed = spawnSync(shell, ['-n'], { input: r.stdout, encoding: 'utf8' });
    expect(parsed.stderr).toBe('');
    expect(parsed.status).toBe(0);
  });
});
