/**
 * The elided-code guard through the whole pipeline, in every input format: an edit that replaces
 * lines by `// ... existing code ...` (or a bare `...`) is ELIDED_CODE naming the line, and the
 * file is left as it was; `allowElision` turns the guard off; placeholders that were already
 * there, or that delete nothing, pass.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EditInput, runEdit } from './run-edit.js';

let root: string;
const SOURCE = [
  'export function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item.price * item.count;',
  '  }',
  '  return sum;',
  '}',
  '',
].join('\n');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-elided-'));
  await writeFile(join(root, 'total.js'), SOURCE);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const codex = [
  '*** Begin Patch',
  '*** Update File: total.js',
  '@@',
  ' export function total(items) {',
  '-  let sum = 0;',
  '-  for (const item of items) {',
  '-    sum += item.price * item.count;',
  '-  }',
  '+  // ... existing code ...',
  '   return sum;',
  '*** End Patch',
].join('\n');

const unified = [
  '--- a/total.js',
  '+++ b/total.js',
  '@@ -1,7 +1,5 @@',
  ' export function total(items) {',
  '-  let sum = 0;',
  '-  for (const item of items) {',
  '-    sum += item.price * item.count;',
  '-  }',
  '+  // ... rest of the function unchanged',
  '+  if (items.length === 0) return 0;',
  '   return sum;',
  ' }',
  '',
].join('\n');

const searchReplace = [
  'total.js',
  '<<<<<<< SEARCH',
  'export function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item.price * item.count;',
  '  }',
  '=======',
  'export function total(items, tax = 0) {',
  '  ...',
  '>>>>>>> REPLACE',
  '',
].join('\n');

const strReplace: EditInput = {
  kind: 'edits',
  edits: [
    {
      command: 'str_replace',
      path: 'total.js',
      old_str: '  let sum = 0;\n  for (const item of items) {\n    sum += item.price * item.count;\n  }\n',
      new_str: '  /* ... */\n  let sum = 0;\n',
    },
  ],
};

const wholeFile: EditInput = {
  kind: 'edits',
  edits: [
    {
      command: 'create',
      path: 'total.js',
      file_text: 'export function total(items) {\n  // ... existing code ...\n  return sum * 2;\n}\n',
    },
  ],
};

const cases: Array<[string, EditInput, number | undefined, RegExp]> = [
  [
    'a Codex patch chunk',
    { kind: 'patch', text: codex },
    9,
    /"\/\/ \.\.\. existing code \.\.\." .* deletes 4 lines of total\.js/,
  ],
  [
    'a unified diff hunk',
    { kind: 'patch', text: unified },
    9,
    /rest of the function unchanged.* deletes 4 lines/,
  ],
  [
    'a SEARCH/REPLACE block',
    { kind: 'patch', text: searchReplace },
    1,
    /\(line 2 of its replacement\): "\.\.\."/,
  ],
  // Commands have no patch text, so their errors carry no patch line (the message names the line).
  ['a str_replace edit', strReplace, undefined, /"\/\* \.\.\. \*\/"/],
  ['a whole file written over the old one', wholeFile, undefined, /\(line 2 of the new file\)/],
];

describe.each(cases)('the elided-code guard on %s', (_name, input, line, message) => {
  it('refuses with ELIDED_CODE naming the line, and leaves the file as it was', async () => {
    const report = await runEdit(input, { root, snapshot: false });
    expect(report.ok).toBe(false);
    expect(report.errors).toHaveLength(1);
    const [error] = report.errors;
    expect(error).toMatchObject({ code: 'ELIDED_CODE', path: 'total.js' });
    expect(error!.line).toBe(line);
    expect(error!.message).toMatch(message);
    expect(error!.message).toContain('re-send the full text of the lines you elided');
    expect(await readFile(join(root, 'total.js'), 'utf8')).toBe(SOURCE);
  });

  it('applies with allowElision: true', async () => {
    const report = await runEdit(input, { root, snapshot: false, allowElision: true });
    expect(report.errors).toEqual([]);
    expect(await readFile(join(root, 'total.js'), 'utf8')).not.toBe(SOURCE);
  });
});

describe('what the guard lets through', () => {
  it('a placeholder comment that was already in the old lines', async () => {
    await writeFile(join(root, 'total.js'), SOURCE.replace('  return sum;', '  // ...\n  return sum;'));
    const patch = [
      '*** Begin Patch',
      '*** Update File: total.js',
      '@@',
      '-  let sum = 0;',
      '-  for (const item of items) {',
      '-    sum += item.price * item.count;',
      '-  }',
      '-  // ...',
      '+  const sum = items.reduce((s, i) => s + i.price * i.count, 0);',
      '+  // ...',
      '   return sum;',
      '*** End Patch',
    ].join('\n');
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false });
    expect(report.errors).toEqual([]);
  });

  it('a placeholder that deletes nothing (an added comment), and a rewrite without one', async () => {
    const added = codex.replace(/^-.*\n/gm, '').replace(' export function total(items) {', '   }');
    expect((await runEdit({ kind: 'patch', text: added }, { root, snapshot: false })).errors).toEqual([]);
    const rewrite = codex.replace('+  // ... existing code ...', '+  const sum = items.length;');
    await writeFile(join(root, 'total.js'), SOURCE);
    expect((await runEdit({ kind: 'patch', text: rewrite }, { root, snapshot: false })).errors).toEqual([]);
  });

  it("Python's `...` body replacing an implementation is code, not a placeholder", async () => {
    await writeFile(join(root, 'api.py'), 'def f(x):\n    y = x + 1\n    return y\n');
    const patch =
      '*** Begin Patch\n*** Update File: api.py\n@@\n def f(x):\n-    y = x + 1\n-    return y\n+    ...\n*** End Patch';
    expect((await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false })).errors).toEqual([]);
  });
});
