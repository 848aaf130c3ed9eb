import { describe, expect, it } from 'vitest';
import { add, del, ROOT, script, update } from './test-support/script.js';
import { touchedPaths } from './touched-paths.js';

describe('touchedPaths', () => {
  it('lists canonical paths once, in order of first appearance, move destinations included', () => {
    const s = script(
      add('./b.txt', ['x']),
      update('src/a.ts', [], 'lib/../dest/a.ts'),
      del(`${ROOT}/b.txt`),
      update('dest/a.ts', []),
    );
    expect(touchedPaths(s, ROOT)).toEqual(['b.txt', 'src/a.ts', 'dest/a.ts']);
  });

  it('leaves out paths the policy refuses', () => {
    const s = script(add('../out.txt', []), del('.git/config'), update('ok.txt', [], '/etc/x'));
    expect(touchedPaths(s, ROOT)).toEqual(['ok.txt']);
  });

  it('is empty for an empty script', () => {
    expect(touchedPaths(script(), ROOT)).toEqual([]);
  });
});
