/**
 * `pnpm lint` fails on a layering violation: the repository's dependency-cruiser config, run on a
 * copy of tooling/fixtures/layering-violation/ (a miniature workspace breaking each rule once),
 * exits non-zero and names every rule at the edge that breaks it, and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const FIXTURE = join(ROOT, 'tooling', 'fixtures', 'layering-violation');
const LINKED = [
  'packages/core',
  'packages/planner',
  'packages/apply',
  'packages/fuzzy',
  'packages/tool',
  'apps/cli',
  'apps/adapters',
];

const RULES = [
  'layer-order',
  'no-agent-sdk',
  'no-circular',
  'no-deep-import',
  'no-package-imports-app',
  'no-static-app-to-app',
  'no-unresolvable',
];

/** Every edge of the fixture that breaks a rule, by rule. */
const EXPECTED = [
  'layer-order: packages/core/src/index.ts → packages/planner/src/index.ts',
  'layer-order: packages/fuzzy/src/index.ts → packages/tool/src/index.ts',
  'no-agent-sdk: packages/tool/src/index.ts → node_modules/openai/index.js',
  'no-unresolvable: packages/planner/src/index.ts → left-pad-undeclared',
  'no-unresolvable: packages/tool/src/index.ts → @patchsmith/planner/secret',
  'no-deep-import: packages/tool/src/index.ts → @patchsmith/planner/secret',
  'no-circular: packages/fuzzy/src/a.ts → packages/fuzzy/src/b.ts',
  'no-deep-import: packages/apply/src/index.ts → packages/planner/src/internal.ts',
  'no-package-imports-app: packages/tool/src/index.ts → apps/cli/src/index.ts',
  'no-static-app-to-app: apps/cli/src/index.ts → apps/adapters/src/index.ts',
];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

let workspace: string;
let lint: { status: number | null; output: string };
let violations: Violation[];

/** depcruise with the repository's config on the copied workspace, as `pnpm lint:layering` runs it. */
function depcruise(...args: string[]) {
  const r = spawnSync(process.execPath, [DEPCRUISE, 'packages', 'apps', '--config', CONFIG, ...args], {
    cwd: workspace,
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  return r;
}

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'patchsmith-layering-'));
  await cp(FIXTURE, workspace, { recursive: true });
  // As pnpm does: each workspace package is reachable by name through a link.
  await mkdir(join(workspace, 'node_modules', '@patchsmith'), { recursive: true });
  // The one agent SDK the fixture imports, as an installed package, so only the SDK rule speaks.
  await mkdir(join(workspace, 'node_modules', 'openai'), { recursive: true });
  await writeFile(
    join(workspace, 'node_modules', 'openai', 'package.json'),
    '{"name": "openai", "main": "index.js"}',
  );
  await writeFile(join(workspace, 'node_modules', 'openai', 'index.js'), 'module.exports = {};');
  for (const dir of LINKED) {
    await symlink(
      join(workspace, dir),
      join(workspace, 'node_modules', '@patchsmith', dir.split('/')[1] ?? dir),
      'dir',
    );
  }
  const text = depcruise();
  lint = { status: text.status, output: text.stdout };
  // The JSON report (which always exits 0) names each violation's edge exactly.
  violations = JSON.parse(depcruise('--output-type', 'json').stdout).summary.violations;
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const edges = () => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

describe('the layering rules on a workspace that breaks them', () => {
  it('fail the lint: a non-zero exit, each rule named in the output', () => {
    // depcruise exits with the number of errors.
    expect(lint.status).toBe(EXPECTED.length);
    for (const rule of RULES) expect(lint.output).toContain(`error ${rule}: `);
  });

  it('report each broken rule at its edge, and the allowed imports not at all', () => {
    expect(edges()).toEqual([...EXPECTED].sort());
  });
});
