import fs from 'node:fs/promises';
import path from 'node:path';
import { PatchsmithError } from '@patchsmith/core';
import { afterAll, describe, expect, it } from 'vitest';
import { settingsSection } from './language-server-client.js';
import { createDiagnosticsSession } from './session.js';
import { spawnTransport } from './spawn-transport.js';
import {
  edited,
  FIXTURES,
  groupAlive,
  lineServer,
  recordingFactory,
  tempProject,
} from './test-support/helpers.js';
import type { DiagnosticsSession, ServerConfig } from './types.js';

const dirs: string[] = [];
const sessions: DiagnosticsSession[] = [];
afterAll(async () => {
  for (const session of sessions) await session.dispose();
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function setup(servers: ServerConfig[], timeoutMs = 5000) {
  const root = await tempProject('session');
  dirs.push(root);
  const recorder = recordingFactory();
  const session = createDiagnosticsSession({
    root,
    servers,
    builtinServers: false,
    timeoutMs,
    settleMs: 100,
    transportFactory: recorder.factory,
  });
  sessions.push(session);
  return { root, session, started: recorder.started };
}

describe.each([
  ['versioned pushes', []],
  ['unversioned pushes', ['--unversioned']],
  ['pull diagnostics', ['--pull']],
  ['pull diagnostics cancelled once', ['--pull', '--cancel-first']],
])('with a server using %s', (_label, flags) => {
  it('reports only the errors the edit introduced, where they are', async () => {
    const { root, session } = await setup([lineServer(flags)]);
    const file = path.join(root, 'notes.txt');
    const before = 'keep\nold ERROR: stays\n';
    const after = 'new line\nkeep\nold ERROR: stays\n  ERROR: fresh one\nWARN: only a warning\n';
    const [result] = await session.collect([await edited(file, before, after)]);
    expect(result).toEqual({
      path: file,
      status: 'ok',
      diagnostics: [
        {
          range: { start: { line: 3, character: 2 }, end: { line: 3, character: 18 } },
          severity: 1,
          source: 'line-server',
          message: 'fresh one',
        },
      ],
      omitted: 0,
      server: 'line',
    });
  });

  it('reports nothing for an edit that fixes an error', async () => {
    const { root, session } = await setup([lineServer(flags)]);
    const file = path.join(root, 'fix.txt');
    const [result] = await session.collect([await edited(file, 'a ERROR: broken\n', 'a fine\n')]);
    expect(result).toMatchObject({ status: 'ok', diagnostics: [], omitted: 0 });
  });
});

describe('a session', () => {
  it('reuses a warm server across calls and sees each call afresh', async () => {
    const { root, session, started } = await setup([lineServer()]);
    const file = path.join(root, 'warm.txt');
    const first = await session.collect([await edited(file, 'x\n', 'x ERROR: one\n')]);
    const second = await session.collect([
      await edited(file, 'x ERROR: one\n', 'x ERROR: one\ny ERROR: two\n'),
    ]);
    expect(started).toHaveLength(1);
    expect(first[0]?.diagnostics.map((d) => d.message)).toEqual(['one']);
    expect(second[0]?.diagnostics.map((d) => d.message)).toEqual(['two']);
  });

  it('starts one server per project root', async () => {
    const { root, session, started } = await setup([lineServer([], { rootMarkers: ['marker'] })]);
    await fs.mkdir(path.join(root, 'a'));
    await fs.mkdir(path.join(root, 'b'));
    await fs.writeFile(path.join(root, 'a/marker'), '');
    await fs.writeFile(path.join(root, 'b/marker'), '');
    const results = await session.collect([
      await edited(path.join(root, 'a/x.txt'), null, 'ERROR: in a\n'),
      await edited(path.join(root, 'b/x.txt'), null, 'ERROR: in b\n'),
      await edited(path.join(root, 'a/y.txt'), null, 'fine\n'),
    ]);
    expect(started).toHaveLength(2);
    expect(results.map((r) => r.diagnostics.map((d) => d.message))).toEqual([['in a'], ['in b'], []]);
  });

  it('reports every error of a new file, and keeps the input order and paths', async () => {
    const { root, session } = await setup([lineServer()]);
    const created = await edited(path.join(root, 'new.txt'), null, 'ERROR: e1\nok\nERROR: e2\n');
    const readme = await edited(path.join(root, 'README.md'), 'a', 'b');
    const results = await session.collect([readme, created]);
    expect(results.map((r) => r.path)).toEqual([readme.path, created.path]);
    expect(results[1]?.diagnostics.map((d) => d.message)).toEqual(['e1', 'e2']);
  });

  it('treats several edits of one file as one edit from the first before to the last after', async () => {
    const { root, session } = await setup([lineServer()]);
    const file = path.join(root, 'twice.txt');
    await edited(file, 'ERROR: old\n', 'ERROR: old\nstep\n');
    const results = await session.collect([
      { path: file, before: 'ERROR: old\n', after: 'ERROR: old\nstep\n' },
      await edited(file, 'ERROR: old\nstep\n', 'step\nERROR: new\n'),
    ]);
    expect(results).toHaveLength(2);
    for (const result of results) expect(result.diagnostics.map((d) => d.message)).toEqual(['new']);
  });

  it('lists at most 20 new errors a file and counts the rest', async () => {
    const { root, session } = await setup([lineServer()]);
    const text = Array.from({ length: 27 }, (_, i) => `ERROR: e${i}`).join('\n');
    const [result] = await session.collect([await edited(path.join(root, 'many.txt'), '', text)]);
    expect(result?.diagnostics).toHaveLength(20);
    expect(result?.diagnostics[0]?.message).toBe('e0');
    expect(result?.omitted).toBe(7);
  });

  it('says no-server for a file no server handles', async () => {
    const { root, session, started } = await setup([lineServer()]);
    const [result] = await session.collect([await edited(path.join(root, 'data.csv'), null, 'a,b\n')]);
    expect(result).toMatchObject({ status: 'no-server', diagnostics: [], omitted: 0 });
    expect(result?.note).toContain('.csv');
    expect(started).toHaveLength(0);
  });

  it('says server-missing when the binary is nowhere', async () => {
    const { root, session } = await setup([
      { name: 'ghost', command: 'patchsmith-no-such-language-server', extensions: ['.ghost'] },
    ]);
    const [result] = await session.collect([await edited(path.join(root, 'a.ghost'), null, 'x')]);
    expect(result).toMatchObject({ status: 'server-missing', diagnostics: [], omitted: 0 });
    expect(result?.note).toContain('patchsmith-no-such-language-server');
  });

  it('says timeout, quickly, for a server that never answers, and leaves no process behind', async () => {
    const silent = {
      name: 'silent',
      command: process.execPath,
      args: [path.join(FIXTURES, 'silent-server.mjs')],
      extensions: ['.txt'],
    };
    const { root, session, started } = await setup([silent], 300);
    const [result] = await session.collect([await edited(path.join(root, 'a.txt'), 'a', 'b')]);
    expect(result).toMatchObject({ status: 'timeout', diagnostics: [], omitted: 0 });
    expect(result?.note).toContain('300 ms');
    const pid = started[0]?.pid;
    expect(pid).toBeTypeOf('number');
    await started[0]?.exited;
    expect(groupAlive(pid!)).toBe(false);
  });

  it('says timeout when a running server never reports a file, naming the side that is missing', async () => {
    // Long enough for the server to start under load; the wait for diagnostics then runs out.
    const { root, session } = await setup([lineServer(['--mute'])], 1500);
    const [changed] = await session.collect([await edited(path.join(root, 'a.txt'), 'a', 'ERROR: b')]);
    expect(changed).toMatchObject({ status: 'timeout', diagnostics: [], omitted: 0 });
    expect(changed?.note).toMatch(
      /^before the edit: line did not report diagnostics for .*a\.txt within 1500 ms$/,
    );
  });

  it('says crashed when the server dies mid-way, with its last words, and restarts it next time', async () => {
    const { root, session, started } = await setup([lineServer(['--crash-on-change'])]);
    const file = path.join(root, 'a.txt');
    const [result] = await session.collect([await edited(file, 'a\n', 'ERROR: b\n')]);
    expect(result).toMatchObject({ status: 'crashed', diagnostics: [], omitted: 0 });
    expect(result?.note).toContain('exited with code 3');
    expect(result?.note).toContain('crashing on purpose');
    // A new file needs no change notification, so the restarted server answers.
    const [next] = await session.collect([await edited(path.join(root, 'b.txt'), null, 'ERROR: c\n')]);
    expect(started).toHaveLength(2);
    expect(next).toMatchObject({ status: 'ok', diagnostics: [{ message: 'c' }] });
  });

  it('says crashed when a transport factory fails for another reason than a missing binary', async () => {
    const root = await tempProject('factory');
    dirs.push(root);
    const session = createDiagnosticsSession({
      root,
      servers: [lineServer()],
      builtinServers: false,
      transportFactory: async () => {
        throw new Error('no sockets today');
      },
    });
    sessions.push(session);
    const [result] = await session.collect([await edited(path.join(root, 'a.txt'), null, 'x')]);
    expect(result).toMatchObject({ status: 'crashed' });
    expect(result?.note).toContain('no sockets today');
  });

  it('answers workspace/configuration from the settings, null where unset', () => {
    const settings = { python: { analysis: { typeCheckingMode: 'strict' } } };
    expect(settingsSection(settings, 'python.analysis')).toEqual({ typeCheckingMode: 'strict' });
    expect(settingsSection(settings, 'python.missing')).toBeNull();
    expect(settingsSection(undefined, 'python')).toBeNull();
    expect(settingsSection(settings, undefined)).toBe(settings);
  });

  it('dispose shuts every server down, and the session refuses work afterwards', async () => {
    const root = await tempProject('dispose');
    dirs.push(root);
    const recorder = recordingFactory();
    const session = createDiagnosticsSession({
      root,
      servers: [lineServer(), lineServer(['--pull'], { name: 'pull', extensions: ['.pull'] })],
      builtinServers: false,
      transportFactory: recorder.factory,
    });
    await session.collect([
      await edited(path.join(root, 'a.txt'), null, 'x'),
      await edited(path.join(root, 'a.pull'), null, 'x'),
    ]);
    expect(recorder.started).toHaveLength(2);
    await session.dispose();
    for (const transport of recorder.started) expect(groupAlive(transport.pid!)).toBe(false);
    await expect(session.collect([])).rejects.toBeInstanceOf(PatchsmithError);
    await session.dispose();
  });

  it('the default transport reports a missing binary as ENOENT', async () => {
    await expect(
      spawnTransport({
        server: { name: 'x', command: 'patchsmith-no-such-binary', extensions: [] },
        projectRoot: '/',
        trust: { projectServers: false },
      }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
