/** The peers' edit forms (issue 15) through the built `patchsmith apply`, as a new user runs it. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPLY_PATCH_BIN, PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-cli-peers-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });
const read = (path: string) => readFile(join(dir, path), 'utf8');
const text = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('patchsmith apply: the peers forms', () => {
  it('whole-file edits, auto-detected and with --format whole-file', async () => {
    await writeFile(join(dir, 'a.py'), 'old\n');
    const reply = text('Updated:', '', '**a.py**', '```python', 'new', '```', '', '```js src/b.js', 'b()', '```');
    const r = ps(['apply', '--json'], reply);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, errors: [] });
    expect(r.status).toBe(0);
    expect([await read('a.py'), await read('src/b.js')]).toStrictEqual(['new\n', 'b()\n']);
    const again = ps(['apply', '--format', 'whole-file'], text('a.py', '<source>', 'newer', '</source>'));
    expect(again.status).toBe(0);
    expect(await read('a.py')).toBe('newer\n');
  });

  it('a whole-file block without a name is a PARSE_ERROR naming its line, in JSON', async () => {
    const r = ps(['apply', '--format', 'whole-file', '--json'], text('Run:', '```', 'npm test', '```'));
    expect(r.status).not.toBe(0);
    expect(JSON.parse(r.stdout).errors[0]).toMatchObject({ code: 'PARSE_ERROR', line: 2 });
  });

  it("Roo's :start_line: blocks and Cline's unclosed last block", async () => {
    await writeFile(join(dir, 'a.ts'), 'let a = 1;\nlet b = 2;\n');
    const roo = text('a.ts', '<<<<<<< SEARCH', ':start_line:1', '-------', '1 | let a = 1;', '=======', 'let a = 10;', '>>>>>>> REPLACE');
    expect(ps(['apply'], roo).status).toBe(0);
    const cline = text('a.ts', '------- SEARCH', 'let b = 2;', '=======', 'let b = 20;');
    expect(ps(['apply'], cline).status).toBe(0);
    expect(await read('a.ts')).toBe('let a = 10;\nlet b = 20;\n');
  });

  it('cd DIR && apply_patch heredocs, in patchsmith and in the apply_patch drop-in', async () => {
    await mkdir(join(dir, 'pkg'));
    await writeFile(join(dir, 'pkg/a.txt'), 'one\n');
    const wrapped = text("cd pkg && apply_patch <<'EOF'", '*** Begin Patch', '*** Update File: a.txt', '@@', '-one', '+two', '*** End Patch', 'EOF');
    expect(ps(['apply'], wrapped).status).toBe(0);
    expect(await read('pkg/a.txt')).toBe('two\n');
    const out = runBin(APPLY_PATCH_BIN, [], {
      cwd: dir,
      input: text("cd .. && apply_patch <<'EOF'", '*** Begin Patch', '*** Add File: x', '+x', '*** End Patch', 'EOF'),
    });
    expect(out.status).not.toBe(0);
    expect(out.stderr + out.stdout).toMatch(/outside the root/);
  });

  it('str_replace JSON with Claude Code field names, and an unknown field refused', async () => {
    await writeFile(join(dir, 'a.txt'), 'hello\n');
    const ok = ps(['apply', '--format', 'str_replace'], JSON.stringify({ file_path: 'a.txt', old_string: 'hello', new_string: 'bye' }));
    expect(ok.status).toBe(0);
    expect(await read('a.txt')).toBe('bye\n');
    const bad = ps(['apply', '--json'], JSON.stringify({ file_path: 'a.txt', old_string: 'bye', new_string: 'x', force: true }));
    expect(JSON.parse(bad.stdout).errors[0]).toMatchObject({ code: 'INVALID_EDIT' });
    expect(JSON.parse(bad.stdout).errors[0].message).toMatch(/"force"/);
  });
});
