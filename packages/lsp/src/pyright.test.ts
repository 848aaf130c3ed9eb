// Against the real pyright language server from this package's dependencies.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiagnosticsSession } from './session.js';
import { edited, groupAlive, recordingFactory, tempProject } from './test-support/helpers.js';
import type { DiagnosticsSession, ServerTransport } from './types.js';

let root: string;
let session: DiagnosticsSession;
let started: ServerTransport[];

beforeAll(async () => {
  root = await tempProject('py', { 'pyrightconfig.json': '{}' });
  const recorder = recordingFactory();
  started = recorder.started;
  session = createDiagnosticsSession({ root, transportFactory: recorder.factory });
});

afterAll(async () => {
  await session.dispose();
  for (const transport of started) expect(groupAlive(transport.pid!)).toBe(false);
  await fs.rm(root, { recursive: true, force: true });
});

const HEADER = 'def double(n: int) -> int:\n    return n * 2\n';

describe('Python diagnostics (real pyright)', () => {
  it('reports a type error the edit introduced at its line and column', async () => {
    const file = path.join(root, 'introduce.py');
    const after = `${HEADER}\n\nlabel: str = double(3)\n`;
    const [result] = await session.collect([await edited(file, HEADER, after)]);
    expect(result).toMatchObject({ path: file, status: 'ok', omitted: 0, server: 'pyright' });
    expect(result?.diagnostics).toHaveLength(1);
    expect(result?.diagnostics[0]).toMatchObject({
      range: { start: { line: 4, character: 13 }, end: { line: 4, character: 22 } },
      severity: 1,
      code: 'reportAssignmentType',
      source: 'Pyright',
    });
    expect(result?.diagnostics[0]?.message).toContain('"int" is not assignable to declared type "str"');
  });

  it('does not report an error that existed before the edit, even where it moved', async () => {
    const file = path.join(root, 'existing.py');
    const before = `${HEADER}broken: str = double(1)\n`;
    const after = `import os\n\n${HEADER}broken: str = double(1)\nprint(undefined_name)\n`;
    const [result] = await session.collect([await edited(file, before, after)]);
    expect(result?.status).toBe('ok');
    expect(result?.diagnostics.map((d) => [d.range.start.line, d.code])).toEqual([
      [5, 'reportUndefinedVariable'],
    ]);
  });

  it('reports nothing for an edit that fixes an error', async () => {
    const file = path.join(root, 'fix.py');
    const before = `${HEADER}value: str = double(2)\n`;
    const after = `${HEADER}value: int = double(2)\n`;
    const [result] = await session.collect([await edited(file, before, after)]);
    expect(result).toMatchObject({ status: 'ok', diagnostics: [], omitted: 0 });
    expect(started).toHaveLength(1);
  });
});
