import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README's first command ends in examples/demo.mjs; CI runs only the second, so this keeps the
// first one honest (it once pointed at a bin that had been renamed and exited 1).
const DEMO = fileURLToPath(new URL('../../../examples/demo.mjs', import.meta.url));

describe('npm run demo (examples/demo.mjs)', () => {
  it('applies the bundled patch with the real bin, shows the result, logs and undoes it, and exits 0', () => {
    const r = spawnSync(process.execPath, [DEMO], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('[M] src/greet.ts');
    expect(r.stdout).toContain('return `Hello, ${title}${person.name}!`;');
    expect(r.stdout).toMatch(/\* \d{8}-\d{6}-\w+ +applied/);
    expect(r.stdout).toContain('the files are back as they were before that apply');
    expect(r.stdout).toContain('exit status of the apply: 0');
  });
});
