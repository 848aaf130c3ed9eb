import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { chunk, file, files, ROOT, script, update } from './test-support/script.js';

/** The file's text after one Update chunk, and the chunk's report. */
function applied(content: string, body: string) {
  const result = planEdits(script(update('f', [chunk(body)])), files({ f: file(content) }), { root: ROOT });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const write = result.plan.writes[0]!;
  return { text: new TextDecoder().decode(write.after!.bytes), report: result.plan.files[0]!.chunks[0]! };
}

describe('added lines keep the file’s indentation style (SPEC §2 pass 4, amended)', () => {
  it('a tab-indented file gets tabs where the model wrote four spaces, and the result says so', () => {
    const { text, report } = applied(
      'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n',
      ' func f() {\n     if x {\n-        return 1\n+        log(x)\n+        return 2\n+    } else {\n+        return 3\n     }',
    );
    expect(text).toBe('func f() {\n\tif x {\n\t\tlog(x)\n\t\treturn 2\n\t} else {\n\t\treturn 3\n\t}\n}\n');
    expect(report).toMatchObject({ pass: 'trimmed', reindented: true });
  });

  it('a two-space file gets two spaces per level where the model wrote four', () => {
    const { text, report } = applied(
      'a:\n  b:\n    c: 1\n',
      ' a:\n     b:\n-        c: 1\n+        c: 2\n+        d: 3',
    );
    expect(text).toBe('a:\n  b:\n    c: 2\n    d: 3\n');
    expect(report.reindented).toBe(true);
  });

  it('an exact match, a uniform shift, or an added line that does not convert evenly is left as written', () => {
    expect(applied('\tx\n', ' \tx\n+    y').text).toBe('\tx\n    y\n');
    expect(applied('\tx\n', ' \tx\n+    y').report.reindented).toBeUndefined();
    // Pass 3 (one shared prefix) already moves added lines; nothing is done twice.
    expect(applied('\t\tx\n', ' \tx\n+\ty').text).toBe('\t\tx\n\t\ty\n');
    // Three spaces in a four-spaces-to-a-tab patch: no even conversion, kept as written.
    const odd = applied('\tx\n\ty\n', ' ____x\n-____y\n+___z'.replace(/_/g, ' '));
    expect(odd.text).toBe('\tx\n   z\n');
    expect(odd.report.reindented).toBeUndefined();
  });
});
