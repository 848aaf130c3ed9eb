import { check } from 'recheck';
import { describe, expect, it } from 'vitest';
import { ELISION_PHRASES, isPlaceholderLine, saysElided } from './placeholder.js';

const at = (path: string, previous = 'x = 1') => ({ path, previous });

describe('isPlaceholderLine', () => {
  it.each([
    '// ... existing code ...',
    '  // ...existing code...',
    '// … rest of the file …',
    '# ... rest of the function unchanged',
    '    # rest of the function unchanged',
    '/* ... */',
    '{/* ... existing JSX ... */}',
    '// (...)',
    '// [... other methods ...]',
    '// existing code here',
    '// Existing code',
    '# ...',
    '-- ... existing queries ...',
    '; ... rest of the config',
    '% ... remaining sections unchanged',
    '(* ... *)',
    '...',
    '    …',
    '. . .',
    '// rest of code remains the same',
    '// implementation unchanged',
    '// ... more code ...',
    '// ...etc',
    '// existing code...',
  ])('%s is a placeholder in code', (line) => {
    expect(isPlaceholderLine(line, at('src/a.ts'))).toBe(true);
  });

  it.each([
    '// Loading...',
    '// Wait for other processes...',
    '# retry a few times...',
    '// TODO: more tests...',
    '// Try the original path...',
    '// keep existing behaviour when the flag is off',
    '// the rest is handled by the caller',
    '#!/usr/bin/env bash',
    '#include <stdio.h>',
    '#[derive(Debug)]',
    '--count;',
    'const rest = [...items];',
    '  ...props,',
    '// Unchanged files are skipped',
    '// Existing files keep their mode.',
    '/** Unchanged lines a hunk shows around a change. */',
    '// unchanged code paths are skipped',
    '// see https://example.com/a...b',
    'console.log("...")',
    '',
  ])('%s is not a placeholder', (line) => {
    expect(isPlaceholderLine(line, at('src/a.ts'))).toBe(false);
  });

  it("reads a bare `...` as Python's Ellipsis body, and as a doctest continuation", () => {
    expect(isPlaceholderLine('    ...', at('pkg/stub.pyi', 'def f(x: int) -> int:'))).toBe(false);
    expect(isPlaceholderLine('        ...', at('pkg/m.py', '    class P(Protocol):'))).toBe(false);
    expect(isPlaceholderLine('    ...', at('pkg/m.py', '    x = compute()'))).toBe(true);
    expect(isPlaceholderLine('    ...', at('pkg/m.py', '    >>> for i in range(3):'))).toBe(false);
  });

  it('in prose, only an HTML comment placeholder counts', () => {
    expect(isPlaceholderLine('// ... existing code ...', at('README.md'))).toBe(false);
    expect(isPlaceholderLine('...', at('docs/guide.md'))).toBe(false);
    expect(isPlaceholderLine('<!-- ... rest of the page unchanged ... -->', at('docs/guide.md'))).toBe(true);
    expect(isPlaceholderLine('<!-- ... -->', at('index.html'))).toBe(true);
    expect(isPlaceholderLine('<!-- TODO: fix the table... -->', at('docs/guide.md'))).toBe(false);
  });
});

describe('saysElided', () => {
  it('needs an ellipsis with elision words, dots alone, or an elision phrase', () => {
    expect(saysElided('...')).toBe(true);
    expect(saysElided('... snip ...')).toBe(true);
    expect(saysElided('and so on...')).toBe(false);
    expect(saysElided('rest of the class')).toBe(true);
    expect(saysElided('rest of the class is a long explanation of something that happens later on')).toBe(
      false,
    );
  });
});

it('a command-line flag followed by help text that quotes a placeholder is not a SQL comment', () => {
  const line =
    '      --allow-elision   apply even where it writes `// ... existing code ...` over deleted lines';
  expect(isPlaceholderLine(line, { path: 'test/__snapshots__/help.snap', previous: [] } as never)).toBe(
    false,
  );
  expect(isPlaceholderLine('-- ... existing code ...', { path: 'q.sql', previous: [] } as never)).toBe(true);
});

describe('placeholder patterns on hostile lines', () => {
  // The literals are checked repository-wide (tooling/config/test/regex-safety.test.ts); these are
  // built at run time, so they are checked here.
  it('builds its phrase patterns without super-linear backtracking', { timeout: 120_000 }, async () => {
    for (const phrase of ELISION_PHRASES) {
      expect((await check(phrase.source, phrase.flags, { timeout: 60_000 })).status).toBe('safe');
    }
  });

  it('reads long comment-like lines whole, with the same answers', () => {
    const long = ' '.repeat(100_000);
    for (const line of [`/*${long}x`, `<!--${long}!`, `(*${long}(`, `//${long}x`, `#${long}i`, `(${long}`]) {
      expect(isPlaceholderLine(line, { path: 'a.ts', previous: '' })).toBe(false);
    }
    expect(isPlaceholderLine(`/*${long}... existing code ...${long}*/`, { path: 'a.ts', previous: '' })).toBe(
      true,
    );
    expect(isPlaceholderLine(`{/* ... rest of the file ... */}`, { path: 'a.tsx', previous: '' })).toBe(true);
    expect(isPlaceholderLine('##include ... existing code', { path: 'a.c', previous: '' })).toBe(true);
    expect(isPlaceholderLine('#include ... existing code', { path: 'a.c', previous: '' })).toBe(false);
  });
});
