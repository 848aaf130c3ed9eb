import { describe, expect, it } from 'vitest';
import { formatHuman } from './format-human.js';
import { terminalSafe } from './terminal-safe.js';

describe('terminalSafe', () => {
  it('writes out control characters a terminal would act on', () => {
    expect(terminalSafe('\u001b[31mred')).toBe('\\x1b[31mred');
    expect(terminalSafe('a\u0007b\u009bc\u007f')).toBe('a\\x07b\\x9bc\\x7f');
    expect(terminalSafe('over\rwrite')).toBe('over\\rwrite');
  });

  it('keeps tabs, newlines, CRLF endings and non-ASCII text', () => {
    expect(terminalSafe('a\tb\r\nc\r')).toBe('a\tb\r\nc\r');
    expect(terminalSafe('café ✅ 日本')).toBe('café ✅ 日本');
  });
});

it('formatHuman never prints a control character from a path, a message or a diff', () => {
  const evil = '\u001b]0;pwned\u0007\u001b[2J';
  const out = formatHuman(
    {
      ok: false,
      dryRun: false,
      files: [],
      diagnostics: [],
      snapshot: null,
      errors: [
        {
          code: 'NO_MATCH',
          message: `no match in ${evil}`,
          path: evil,
          nearest: { startLine: 1, endLine: 1, similarity: 0.5, diff: `-${evil}\n+x` },
        },
      ],
    },
    { color: false },
  );
  expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  expect(out).toContain('\\x1b]0;pwned\\x07');
  const applied = formatHuman(
    {
      ok: true,
      dryRun: false,
      files: [{ path: evil, op: 'add', additions: 1, deletions: 0, diff: `+${evil}\n`, chunks: [] }],
      diagnostics: [],
      snapshot: null,
      errors: [],
    },
    { color: true, diffs: true },
  );
  // Only the colours formatHuman adds itself remain.
  expect(applied.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
});
