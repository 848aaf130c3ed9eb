/**
 * Every patch of the reference's conformance scenarios parses, or fails with the error the
 * reference rejects it for at parse time. The other rejected scenarios (missing file, no match...)
 * fail later, when the patch is planned, so their patches must parse.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorCode } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';
import { printPatch } from './print-patch.js';
import { withoutLines } from './test-support/arbitraries.js';

const SCENARIOS =
  process.env.PATCHSMITH_CONFORMANCE_DIR ??
  fileURLToPath(new URL('../../../tooling/fixtures/codex-scenarios', import.meta.url));

/** The scenarios the reference rejects while parsing. */
const PARSE_FAILURES: Record<string, { code: ErrorCode; line: number }> = {
  '005_rejects_empty_patch': { code: 'EMPTY_PATCH', line: 2 },
  '008_rejects_empty_update_hunk': { code: 'PARSE_ERROR', line: 3 },
  '013_rejects_invalid_hunk_header': { code: 'PARSE_ERROR', line: 2 },
};

const names = existsSync(SCENARIOS)
  ? readdirSync(SCENARIOS)
      .filter((n) => /^\d{3}_/.test(n))
      .sort()
  : [];
const patchOf = (name: string) => readFileSync(join(SCENARIOS, name, 'patch.txt'), 'utf8');

describe('conformance scenarios (codex-scenarios/*/patch.txt)', () => {
  it(`are all present in ${SCENARIOS} (set PATCHSMITH_CONFORMANCE_DIR to move them)`, () => {
    expect(names.length).toBeGreaterThanOrEqual(25);
    for (const name of Object.keys(PARSE_FAILURES)) expect(names).toContain(name);
  });

  it.each(names)('%s', (name) => {
    const result = parsePatch(patchOf(name));
    const failure = PARSE_FAILURES[name];
    if (failure !== undefined) {
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.errors.map((e) => [e.code, e.line])).toStrictEqual([[failure.code, failure.line]]);
      return;
    }
    if (!result.ok) throw new Error(`${name}: ${result.errors[0]?.message}`);
    // What parsed prints and parses back to the same script.
    const again = parsePatch(printPatch(result.value));
    expect(again.ok && withoutLines(again.value)).toStrictEqual(withoutLines(result.value));
  });

  it('read the details that matter: padding, End of File, Move, pure additions', () => {
    const value = (name: string) => {
      const r = parsePatch(patchOf(name));
      if (!r.ok) throw new Error(r.errors[0]?.message);
      return r.value.operations;
    };
    expect(value('017_whitespace_padded_hunk_header')[0]).toMatchObject({
      kind: 'update',
      path: 'foo.txt',
      line: 2,
    });
    expect(value('018_whitespace_padded_patch_markers')).toHaveLength(1);
    const padded = value('020_whitespace_padded_patch_marker_lines')[0];
    expect(padded?.kind === 'update' && padded.chunks[0]?.lines.map((l) => l.text)).toStrictEqual([
      'one',
      'two',
    ]);
    const eof = value('022_update_file_end_of_file_marker')[0];
    expect(eof?.kind === 'update' && eof.chunks[0]?.endOfFile).toBe(true);
    expect(value('004_move_to_new_directory')[0]).toMatchObject({ movePath: 'renamed/dir/name.txt' });
    expect(value('002_multiple_operations').map((o) => o.kind)).toStrictEqual(['add', 'delete', 'update']);
    const pure = value('016_pure_addition_update_chunk')[0];
    expect(pure?.kind === 'update' && pure.chunks[0]?.lines.every((l) => l.kind === 'add')).toBe(true);
    const unicode = value('019_unicode_simple')[0];
    expect(unicode?.kind === 'update' && unicode.chunks[0]?.lines.at(-1)?.text).toBe('naïve café ✅');
  });
});
