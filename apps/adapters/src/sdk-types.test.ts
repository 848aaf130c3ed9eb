/**
 * The published types, checked as a user's project sees them: `tsc --noEmit` with
 * `skipLibCheck: false` on a small example per entry, in a temp project that has only that
 * entry's SDK installed (and one with all of them), under `moduleResolution` node16 and bundler,
 * for the newest and the oldest supported release. Each example holds a deliberate misuse under
 * `@ts-expect-error`, so an entry whose types decayed to `any` fails too. Needs the build (dist).
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OLDEST_SDKS } from '../vitest.config.js';

const run = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** Each example, and the SDK its entry is for (null: the main entry, no SDK). */
const EXAMPLES: Record<string, string | null> = {
  main: null,
  openai: 'openai',
  'openai-agents': '@openai/agents',
  anthropic: '@anthropic-ai/sdk',
  vercel: 'ai',
  langchain: '@langchain/core',
};
const ALL_SDKS = Object.values(EXAMPLES).filter((sdk): sdk is string => sdk !== null);
type Release = 'newest' | 'oldest';
type Resolution = 'node16' | 'bundler';

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** Links `node_modules/<name>` of a project to a real folder (its own dependencies resolve from there). */
async function link(project: string, name: string, target: string) {
  const at = join(project, 'node_modules', name);
  await mkdir(dirname(at), { recursive: true });
  await symlink(await realpath(target), at, 'dir');
}

/**
 * A project as a user's, with the built @patchsmith/adapters copied in (so its own folder's SDKs
 * are out of reach), its @patchsmith dependencies and zod, @types/node, and only the given SDKs.
 */
async function userProject(sdks: string[], release: Release, resolution: Resolution, examples: string[]) {
  const project = await mkdtemp(join(tmpdir(), 'patchsmith-types-'));
  scratch.push(project);
  const adapters = join(project, 'node_modules', '@patchsmith', 'adapters');
  await mkdir(adapters, { recursive: true });
  await cp(here('package.json'), join(adapters, 'package.json'));
  await cp(here('dist'), join(adapters, 'dist'), { recursive: true });
  const manifest = JSON.parse(await readFile(here('package.json'), 'utf8'));
  for (const dep of Object.keys(manifest.dependencies)) await link(project, dep, here(`node_modules/${dep}`));
  await link(project, '@types/node', here('node_modules/@types/node'));
  for (const sdk of sdks) {
    const installed = release === 'oldest' ? OLDEST_SDKS[sdk]! : sdk;
    await link(project, sdk, here(`node_modules/${installed}`));
  }
  for (const example of examples)
    await cp(here(`type-examples/${example}.ts`), join(project, `${example}.ts`));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'user', type: 'module' }));
  const compilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    ...(resolution === 'node16'
      ? { module: 'node16', moduleResolution: 'node16' }
      : { module: 'preserve', moduleResolution: 'bundler' }),
  };
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
  return project;
}

const CASES: {
  name: string;
  sdks: string[];
  examples: string[];
  release: Release;
  resolution: Resolution;
}[] = [];
for (const resolution of ['node16', 'bundler'] as const) {
  for (const [example, sdk] of Object.entries(EXAMPLES)) {
    const name = `${example}.ts with only ${sdk ?? 'no SDK'} installed (${resolution})`;
    CASES.push({ name, sdks: sdk ? [sdk] : [], examples: [example], release: 'newest', resolution });
  }
  for (const release of ['newest', 'oldest'] as const) {
    const name = `every example with every SDK, ${release} releases (${resolution})`;
    CASES.push({ name, sdks: ALL_SDKS, examples: Object.keys(EXAMPLES), release, resolution });
  }
}

describe('the published types in a user project (skipLibCheck: false)', () => {
  // One checker process for every project, sharing the parsed declaration files between them.
  const errors = new Map<string, string>();
  beforeAll(async () => {
    const projects = await Promise.all(
      CASES.map((c) => userProject(c.sdks, c.release, c.resolution, c.examples)),
    );
    const { stdout } = await run(process.execPath, [here('type-examples/check.mjs'), ...projects], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const results: Record<string, string> = JSON.parse(stdout);
    for (const [i, c] of CASES.entries()) errors.set(c.name, results[projects[i]!]!);
  }, 300_000);

  it.each(CASES.map((c) => c.name))('%s', (name) => {
    expect(errors.get(name)).toBe('');
  });
});
