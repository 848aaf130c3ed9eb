import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { APPLY_PATCH_BIN, runBin } from './bins.js';
import { readTree } from './tree.js';

const SCENARIOS = fileURLToPath(new URL('../../../tooling/fixtures/codex-scenarios/', import.meta.url));
const SHARED = fileURLToPath(new URL('../../../../shared/conformance/codex-scenarios/', import.meta.url));

// The one place we deliberately differ (shared/conformance/README.md): all-or-nothing.
const ALL_OR_NOTHING = new Set(['015_failure_after_partial_success_leaves_changes']);

const names = (await readdir(SCENARIOS)).filter((n) => /^\d{3}_/.test(n)).sort();
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
});

describe('reference apply_patch scenarios, through the apply_patch bin', () => {
  it('has all 25 scenarios', () => {
    expect(names).toHaveLength(25);
  });

  it.runIf(existsSync(SHARED))('the vendored copy equals ../shared/conformance byte for byte', async () => {
    expect(await readTree(SCENARIOS)).toEqual(await readTree(SHARED));
  });

  it.each(names)('%s', async (name) => {
    const dir = join(SCENARIOS, name);
    const work = await mkdtemp(join(tmpdir(), `ps-conf-${name.slice(0, 3)}-`));
    temps.push(work);
    if (existsSync(join(dir, 'input'))) await cp(join(dir, 'input'), work, { recursive: true });
    const patch = await readFile(join(dir, 'patch.txt'), 'utf8');
    const result = runBin(APPLY_PATCH_BIN, [patch], { cwd: work });
    expect(result.stderr).not.toMatch(/\n\s+at /); // never a stack trace
    const expectedDir = ALL_OR_NOTHING.has(name) ? join(dir, 'input') : join(dir, 'expected');
    expect(await readTree(work)).toEqual(await readTree(expectedDir));
    expect([0, 1]).toContain(result.status);
  });
});
