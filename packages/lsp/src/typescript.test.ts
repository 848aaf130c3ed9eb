// Against the real typescript-language-server (and tsserver) from this package's dependencies.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiagnosticsSession } from './session.js';
import { edited, groupAlive, recordingFactory, tempProject } from './test-support/helpers.js';
import type { DiagnosticsSession, ServerTransport } from './types.js';

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    noEmit: true,
  },
});

let root: string;
let session: DiagnosticsSession;
let started: ServerTransport[];

beforeAll(async () => {
  root = await tempProject('ts', { 'tsconfig.json': TSCONFIG, 'package.json': '{"type":"module"}' });
  const recorder = recordingFactory();
  started = recorder.started;
  session = createDiagnosticsSession({ root, transportFactory: recorder.factory });
});

afterAll(async () => {
  await session.dispose();
  for (const transport of started) expect(groupAlive(transport.pid!)).toBe(false);
  await fs.rm(root, { recursive: true, force: true });
});

describe('TypeScript diagnostics (real server)', () => {
  it('reports a type error the edit introduced at its line and column', async () => {
    const file = path.join(root, 'src/introduce.ts');
    const before = 'export const count: number = 1;\n';
    const after =
      'export const count: number = 1;\n\nexport function label(): string {\n  return count;\n}\n';
    const [result] = await session.collect([await edited(file, before, after)]);
    expect(result).toMatchObject({ path: file, status: 'ok', omitted: 0, server: 'typescript' });
    expect(result?.diagnostics).toEqual([
      {
        range: { start: { line: 3, character: 2 }, end: { line: 3, character: 8 } },
        severity: 1,
        code: 2322,
        source: 'typescript',
        message: "Type 'number' is not assignable to type 'string'.",
      },
    ]);
  });

  it('does not report an error that existed before the edit, even where it moved', async () => {
    const file = path.join(root, 'src/existing.ts');
    const before = "export const broken: number = 'text';\n";
    const after =
      "// a comment\n// and another\nexport const broken: number = 'text';\nexport const fresh: boolean = 3;\n";
    const [result] = await session.collect([await edited(file, before, after)]);
    expect(result?.status).toBe('ok');
    expect(result?.diagnostics.map((d) => [d.range.start.line, d.message])).toEqual([
      [3, "Type 'number' is not assignable to type 'boolean'."],
    ]);
  });

  it('reports nothing for an edit that fixes an error', async () => {
    const file = path.join(root, 'src/fix.ts');
    const before = "export const value: number = 'oops';\n";
    const after = 'export const value: number = 42;\n';
    const [result] = await session.collect([await edited(file, before, after)]);
    expect(result).toMatchObject({ status: 'ok', diagnostics: [], omitted: 0 });
  });

  it('stays correct when warm: a later file sees what an earlier call left on disk', async () => {
    const lib = path.join(root, 'src/lib.ts');
    const use = path.join(root, 'src/use.ts');
    await session.collect([
      await edited(lib, 'export const a = 1;\n', 'export const a = 1;\nexport const b = 2;\n'),
    ]);
    const [result] = await session.collect([
      await edited(use, null, "import { a, b } from './lib.js';\nexport const sum: number = a + b;\n"),
    ]);
    expect(result).toMatchObject({ status: 'ok', diagnostics: [] });
    expect(started).toHaveLength(1);
  });

  it('sees the files of one edit together: a change in one file that breaks another is new there', async () => {
    const shapes = path.join(root, 'src/shapes.ts');
    const area = path.join(root, 'src/area.ts');
    const areaBefore =
      "import type { Square } from './shapes.js';\nexport const area = (s: Square) => s.side ** 2;\n";
    const results = await session.collect([
      await edited(
        shapes,
        'export interface Square { side: number }\n',
        'export interface Square { edge: number }\n',
      ),
      await edited(area, areaBefore, `${areaBefore}export const unit = 1;\n`),
    ]);
    expect(results[0]).toMatchObject({ path: shapes, status: 'ok', diagnostics: [] });
    expect(results[1]?.diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.code])).toEqual(
      [[1, 37, 2339]],
    );
  });
});
