import { describe, expect, it } from 'vitest';
import { parseEdits } from './parse-edits.js';
import { parsePatch } from './parse-patch.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const body = ['*** Begin Patch', '*** Update File: a.py', '@@', '-x = 1', '+x = 2', '*** End Patch'];

function paths(input: string): string[] {
  const r = parsePatch(input);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.operations.map((op) =>
    op.kind === 'update' && op.movePath ? `${op.path}->${op.movePath}` : op.path,
  );
}

describe('Codex patch variants', () => {
  it('a bare Update/Add/Delete sequence, without *** Begin Patch and *** End Patch, line numbers as given', () => {
    const r = parsePatch(text('*** Update File: a.py', '@@', '-x = 1', '+x = 2', '*** Delete File: b.py'));
    expect(r.ok && r.value.operations.map((o) => [o.kind, o.path, o.line])).toStrictEqual([
      ['update', 'a.py', 1],
      ['delete', 'b.py', 5],
    ]);
    expect(paths(text('*** Add File: n.txt', '+hi', '*** End Patch'))).toStrictEqual(['n.txt']);
  });

  it.each([
    ['applypatch', ["applypatch <<'EOF'", ...body, 'EOF']],
    ['bash -lc "apply_patch <<EOF … EOF"', ["bash -lc \"apply_patch <<'EOF'", ...body, 'EOF', '"']],
    ['the quote on the delimiter line', ['bash -lc "apply_patch <<EOF', ...body, 'EOF"']],
    ['a %%bash cell', ['%%bash', 'apply_patch <<"EOF"', ...body, 'EOF']],
    ['a fence around a heredoc', ['```bash', "apply_patch <<'EOF'", ...body, 'EOF', '```']],
  ])('unwraps %s', (_what, lines) => {
    const r = parsePatch(text(...lines));
    expect(r.ok && r.value.operations.map((o) => [o.path, o.line])).toStrictEqual([
      ['a.py', lines.indexOf('*** Update File: a.py') + 1],
    ]);
  });

  it('cd DIR && apply_patch: paths are relative to DIR (quoted or not), moves too', () => {
    expect(paths(text("cd src/app && apply_patch <<'EOF'", ...body, 'EOF'))).toStrictEqual(['src/app/a.py']);
    expect(paths(text("bash -lc \"cd 'my dir' && apply_patch <<EOF", ...body, 'EOF"'))).toStrictEqual([
      'my dir/a.py',
    ]);
    expect(
      paths(
        text(
          "cd lib && apply_patch <<'EOF'",
          '*** Begin Patch',
          '*** Update File: a',
          '*** Move to: ../b',
          '*** End Patch',
          'EOF',
        ),
      ),
    ).toStrictEqual(['lib/a->b']);
    expect(paths(text("cd . && apply_patch <<'EOF'", ...body, 'EOF'))).toStrictEqual(['a.py']);
    // An absolute folder stays absolute: the transaction's path policy decides whether it is inside the root.
    expect(paths(text("cd /repo/sub && apply_patch <<'EOF'", ...body, 'EOF'))).toStrictEqual([
      '/repo/sub/a.py',
    ]);
  });

  it('refuses a cd outside the root, or one the shell would expand, naming the line', () => {
    const out = parsePatch(text("cd ../elsewhere && apply_patch <<'EOF'", ...body, 'EOF'));
    expect(!out.ok && out.errors[0]).toMatchObject({ code: 'PATH_OUTSIDE_ROOT', line: 1 });
    const sneaky = parsePatch(text("cd a/../../x && apply_patch <<'EOF'", ...body, 'EOF'));
    expect(!sneaky.ok && sneaky.errors[0]).toMatchObject({ code: 'PATH_OUTSIDE_ROOT', line: 1 });
    const home = parsePatch(text("cd ~/repo && apply_patch <<'EOF'", ...body, 'EOF'));
    expect(!home.ok && home.errors[0]).toMatchObject({ code: 'PARSE_ERROR', line: 1 });
    const git = parsePatch(text("cd .git && apply_patch <<'EOF'", ...body, 'EOF'));
    expect(!git.ok && git.errors[0]).toMatchObject({ code: 'PATH_INVALID', line: 1 });
  });

  it('the cd folder applies to the other formats too', () => {
    const r = parseEdits(
      text(
        "cd web && apply_patch <<'EOF'",
        'x.js',
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'b',
        '>>>>>>> REPLACE',
        'EOF',
      ),
    );
    expect(r.ok && r.value.operations.map((o) => o.path)).toStrictEqual(['web/x.js']);
    const u = parseEdits(
      text("cd web && apply_patch <<'EOF'", '--- a/x.js', '+++ b/x.js', '@@ -1 +1 @@', '-a', '+b', 'EOF'),
    );
    expect(u.ok && u.value.operations.map((o) => o.path)).toStrictEqual(['web/x.js']);
  });

  it('a truncated patch that began with *** Begin Patch still fails', () => {
    expect(parsePatch(text('*** Begin Patch', '*** Update File: a', '@@', '-x')).ok).toBe(false);
  });
});
