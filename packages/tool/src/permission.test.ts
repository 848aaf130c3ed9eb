import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plan, PlannedFile } from '@patchsmith/planner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_FILE, loadConfig, parsePolicy } from './config.js';
import {
  createPermissionGate,
  decide,
  loadPolicy,
  type PermissionPolicy,
  type PermissionRequest,
} from './permission.js';
import { runEdit } from './run-edit.js';

function file(path: string, extra: Partial<PlannedFile> = {}): PlannedFile {
  return { path, op: 'update', additions: 1, deletions: 1, diff: '', chunks: [], ...extra };
}

function planOf(...files: PlannedFile[]): Plan {
  return { files, writes: [] };
}

const policy = (...rules: [string, 'allow' | 'deny' | 'ask'][]): PermissionPolicy => ({
  rules: rules.map(([match, action]) => ({ match, action })),
  source: CONFIG_FILE,
});

describe('decide', () => {
  it.each([
    // [rules, path, action, deciding rule index]
    [[], 'src/a.ts', 'allow', -1], // default allow
    [[['*.env', 'deny']], 'config/.env', 'deny', 0],
    [[['*.env', 'deny']], 'src/a.ts', 'allow', -1],
    [
      [
        ['src/**', 'deny'],
        ['src/public/**', 'allow'],
      ],
      'src/public/x.ts',
      'allow',
      1,
    ], // last match wins
    [
      [
        ['src/public/**', 'allow'],
        ['src/**', 'deny'],
      ],
      'src/public/x.ts',
      'deny',
      1,
    ], // order matters
    [
      [
        ['**', 'ask'],
        ['docs/**', 'allow'],
      ],
      'docs/a.md',
      'allow',
      1,
    ],
    [
      [
        ['**', 'ask'],
        ['docs/**', 'allow'],
      ],
      'lib/a.ts',
      'ask',
      0,
    ],
  ] as const)('rules %j: %s -> %s', (rules, path, action, index) => {
    const [decision] = decide(planOf(file(path)), policy(...(rules as unknown as [string, 'allow'][])));
    expect(decision).toMatchObject({ path, action, ruleIndex: index });
  });

  it('decides both ends of a move', () => {
    const decisions = decide(
      planOf(file('a.ts', { op: 'move', movePath: 'secret/a.ts' })),
      policy(['secret/**', 'deny']),
    );
    expect(decisions.map((d) => [d.path, d.action])).toEqual([
      ['a.ts', 'allow'],
      ['secret/a.ts', 'deny'],
    ]);
  });
});

describe('decide on the real path too', () => {
  it('a deny on the real path a write reaches through a symlink wins, and says which name decided', () => {
    const plan: Plan = {
      files: [file('docs/s/key.txt')],
      writes: [{ path: 'docs/s/key.txt', realPath: 'secrets/key.txt', before: null, after: null }],
    };
    const [decision] = decide(plan, policy(['secrets/**', 'deny']));
    expect(decision).toMatchObject({ path: 'docs/s/key.txt', action: 'deny', via: 'secrets/key.txt' });
  });

  it('the gate names the real path in its refusal, and suggests a rule for the name that asked', async () => {
    const plan: Plan = {
      files: [file('docs/r.md')],
      writes: [{ path: 'docs/r.md', realPath: 'review/r.md', before: null, after: null }],
    };
    const answer = await createPermissionGate({ policy: policy(['review/**', 'ask']) })(plan);
    const message = (answer as { message: string }).message;
    expect(message).toContain('docs/r.md (real path review/r.md)');
    expect(message).toContain('{"match": "review/r.md", "action": "allow"}');
  });
});

describe('createPermissionGate', () => {
  it('answers yes when every path is allowed', async () => {
    const gate = createPermissionGate({ policy: policy(['*.md', 'deny']) });
    expect(await gate(planOf(file('src/a.ts')))).toBe('yes');
  });

  it('refuses a denied path, naming the path and the rule', async () => {
    const gate = createPermissionGate({ policy: policy(['**', 'allow'], ['secrets/**', 'deny']) });
    const answer = await gate(planOf(file('src/a.ts'), file('secrets/key.pem')));
    expect(answer).toEqual({
      answer: 'no',
      message: expect.stringContaining('secrets/key.pem'),
      path: 'secrets/key.pem',
    });
    const message = (answer as { message: string }).message;
    expect(message).toContain('rule 2 {"match": "secrets/**", "action": "deny"}');
    expect(message).toContain(CONFIG_FILE);
    expect(message).not.toContain('src/a.ts');
  });

  it('without a prompt, refuses an ask path and says how to allow it', async () => {
    const gate = createPermissionGate({ policy: policy(['*.lock', 'ask']) });
    const answer = await gate(planOf(file('pnpm.lock')));
    expect(typeof answer).toBe('object');
    const message = (answer as { message: string }).message;
    expect(message).toContain('pnpm.lock');
    expect(message).toContain('rule 1 {"match": "*.lock", "action": "ask"}');
    expect(message).toContain('{"match": "pnpm.lock", "action": "allow"}');
  });

  it('asks the prompt only about the paths that need it', async () => {
    const requests: PermissionRequest[] = [];
    const gate = createPermissionGate({
      policy: policy(['*.lock', 'ask']),
      prompt: (request) => {
        requests.push(request);
        return 'yes';
      },
    });
    expect(await gate(planOf(file('a.ts'), file('b.lock')))).toBe('yes');
    expect(requests.map((r) => r.paths.map((p) => p.path))).toEqual([['b.lock']]);
    // 'yes' is for this edit only: the next one asks again.
    await gate(planOf(file('b.lock')));
    expect(requests).toHaveLength(2);
  });

  it('remembers paths answered "always" for the rest of the session', async () => {
    let asked = 0;
    const gate = createPermissionGate({
      policy: policy(['**', 'ask']),
      prompt: () => {
        asked++;
        return 'always';
      },
    });
    expect(await gate(planOf(file('a.ts')))).toBe('always');
    expect(await gate(planOf(file('a.ts')))).toBe('yes');
    expect(asked).toBe(1);
    await gate(planOf(file('a.ts'), file('b.ts'))); // a new path is asked about, alone
    expect(asked).toBe(2);
    // Another gate is another session.
    let askedElsewhere = 0;
    const other = createPermissionGate({
      policy: policy(['**', 'ask']),
      prompt: () => {
        askedElsewhere++;
        return 'yes';
      },
    });
    await other(planOf(file('a.ts')));
    expect(askedElsewhere).toBe(1);
  });

  it('never lets "always" override a deny', async () => {
    const gate = createPermissionGate({
      policy: policy(['**', 'ask'], ['x/**', 'deny']),
      prompt: () => 'always',
    });
    await gate(planOf(file('x/a')));
    expect(await gate(planOf(file('x/a')))).toMatchObject({ answer: 'no' });
  });

  it('turns a prompt "no" into a refusal naming the paths', async () => {
    const gate = createPermissionGate({ policy: policy(['**', 'ask']), prompt: () => 'no' });
    expect(await gate(planOf(file('a.ts')))).toEqual({
      answer: 'no',
      message: expect.stringContaining('a.ts'),
      path: 'a.ts',
    });
  });
});

describe('loadPolicy', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'patchsmith-policy-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('allows everything when there is no config file', async () => {
    expect(await loadPolicy(root)).toEqual({ ok: true, value: { rules: [], source: CONFIG_FILE } });
  });

  it('reads the rules of .patchsmith.json', async () => {
    const config = { permissions: [{ match: '*.env', action: 'deny' }] };
    await writeFile(join(root, CONFIG_FILE), JSON.stringify(config));
    const loaded = await loadPolicy(root);
    expect(loaded).toEqual({ ok: true, value: { rules: config.permissions, source: CONFIG_FILE } });
  });

  it.each([
    ['{ not json', 'not valid JSON'],
    ['{"permissions": [{"match": "a", "action": "maybe"}]}', 'permissions.0.action'],
    ['{"permission": []}', 'permission'], // a typo must not silently allow everything
    ['{"permissions": [{"match": "", "action": "deny"}]}', 'permissions.0.match'],
  ])('reports a broken config %s as PARSE_ERROR', async (text, mention) => {
    await writeFile(join(root, CONFIG_FILE), text);
    const loaded = await loadPolicy(root);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.errors[0]).toMatchObject({ code: 'PARSE_ERROR', path: CONFIG_FILE });
    expect(loaded.errors[0]!.message).toContain(mention);
  });

  it('reads "diagnostics": true as the default for --diagnostics', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ps-config-'));
    try {
      await writeFile(join(root, CONFIG_FILE), '{"diagnostics": true}');
      expect(await loadConfig(root)).toMatchObject({ ok: true, value: { diagnostics: true } });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('parsePolicy takes an already parsed object', async () => {
    expect(await parsePolicy({ permissions: [] })).toEqual({
      ok: true,
      value: { rules: [], source: CONFIG_FILE },
    });
  });
});

describe('the gate in runEdit', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'patchsmith-gate-'));
    await writeFile(join(root, 'a.txt'), 'one\n');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch';

  it('rejects with DENIED and the gate message, writing nothing', async () => {
    const ask = createPermissionGate({ policy: policy(['*.txt', 'ask']) });
    const report = await runEdit({ kind: 'patch', text: patch }, { root, ask, snapshot: false });
    expect(report.ok).toBe(false);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.code).toBe('DENIED');
    expect(report.errors[0]!.message).toContain('a.txt (rule 1 {"match": "*.txt", "action": "ask"}');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('applies once the prompt says yes', async () => {
    const ask = createPermissionGate({ policy: policy(['*.txt', 'ask']), prompt: () => 'yes' });
    const report = await runEdit({ kind: 'patch', text: patch }, { root, ask, snapshot: false });
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\n');
  });
});
