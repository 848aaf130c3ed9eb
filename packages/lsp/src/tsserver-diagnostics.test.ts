import { describe, expect, it } from 'vitest';
import { tsserverToLsp } from './tsserver-diagnostics.js';

describe('tsserverToLsp', () => {
  it('turns 1-based line and offset into 0-based LSP positions and maps categories', () => {
    const [error, suggestion] = tsserverToLsp([
      {
        start: { line: 2, offset: 14 },
        end: { line: 2, offset: 15 },
        text: 'bad',
        code: 2322,
        category: 'error',
      },
      {
        start: { line: 1, offset: 1 },
        end: { line: 1, offset: 4 },
        text: 'meh',
        code: 6133,
        category: 'suggestion',
      },
    ]);
    expect(error).toEqual({
      range: { start: { line: 1, character: 13 }, end: { line: 1, character: 14 } },
      severity: 1,
      code: 2322,
      source: 'typescript',
      message: 'bad',
    });
    expect(suggestion?.severity).toBe(4);
  });
});
