import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { languageIdFor, serverForFile } from './builtin-servers.js';
import { findDependents } from './dependents.js';
import type { LanguageServerClient, StartResult, Waited } from './language-server-client.js';
import { capErrors, newErrors } from './new-errors.js';
import { findProjectRoot } from './project-root.js';
import type { DiagnosticsSession, EditedFile, FileDiagnostics, ServerConfig } from './types.js';

/** What the collection needs from a session: its settings and its warm servers. */
export interface CollectContext {
  root: string;
  servers: readonly ServerConfig[];
  timeoutMs: number;
  settleMs: number;
  maxPerFile: number;
  /** Also check the files that import an edited one (see `findDependents`). */
  dependents: boolean;
  /** A running, initialised client for the server and project root (started on demand). */
  client(server: ServerConfig, projectRoot: string): Promise<StartResult>;
}

interface Group {
  server: ServerConfig;
  projectRoot: string;
  files: EditedFile[];
}

interface OpenDoc {
  file: EditedFile;
  uri: string;
  opened: boolean;
  before?: Waited<LspDiagnostic[]>;
  after?: Waited<LspDiagnostic[]>;
}

/**
 * The errors each edit introduced, one result per input entry in input order. Edits that name the
 * same file are one edit from the first `before` to the last `after`.
 */
export function collectDiagnostics(
  session: DiagnosticsSession,
  edits: readonly EditedFile[],
): Promise<FileDiagnostics[]> {
  return session.collect(edits);
}

/** One edit per file: the state before the first edit, the content after the last. */
function mergeByFile(root: string, edits: readonly EditedFile[]): Map<string, EditedFile> {
  const merged = new Map<string, EditedFile>();
  for (const edit of edits) {
    const key = path.resolve(root, edit.path);
    const seen = merged.get(key);
    merged.set(key, { path: key, before: seen ? seen.before : edit.before, after: edit.after });
  }
  return merged;
}

export async function collectWith(
  ctx: CollectContext,
  edits: readonly EditedFile[],
): Promise<FileDiagnostics[]> {
  const merged = mergeByFile(ctx.root, edits);
  const results = new Map<string, Omit<FileDiagnostics, 'path'>>();
  const groups = new Map<string, Group>();
  for (const [key, file] of merged) {
    const server = serverForFile(ctx.servers, key);
    if (!server) {
      const ext = path.extname(key) || '(no extension)';
      results.set(key, {
        status: 'no-server',
        diagnostics: [],
        omitted: 0,
        note: `no language server for ${ext}`,
      });
      continue;
    }
    const projectRoot = findProjectRoot(key, server.rootMarkers ?? [], ctx.root);
    const groupKey = `${server.name}\0${projectRoot}`;
    const group = groups.get(groupKey) ?? { server, projectRoot, files: [] };
    group.files.push(file);
    groups.set(groupKey, group);
  }
  const dependents = ctx.dependents ? await addDependents(groups, merged) : [];
  await Promise.all([...groups.values()].map((group) => collectGroup(ctx, group, results)));
  const edited = edits.map((edit) => {
    const result = results.get(path.resolve(ctx.root, edit.path));
    return {
      path: edit.path,
      ...(result ?? { status: 'crashed' as const, diagnostics: [], omitted: 0, note: 'not collected' }),
    };
  });
  // An importer is reported with what the edit broke there (its own old errors are not new); one
  // the server could not check is left out, since it was not asked about.
  const checked = dependents.flatMap((file): FileDiagnostics[] => {
    const result = results.get(file);
    return result?.status === 'ok' ? [{ path: file, ...result, dependent: true }] : [];
  });
  return [...edited, ...checked];
}

/**
 * Adds to each group the project's files that import one of its edited files, unchanged (shown
 * before and after the edit, so their new errors are what the edit caused); returns their paths.
 */
async function addDependents(groups: Map<string, Group>, merged: Map<string, EditedFile>): Promise<string[]> {
  const added: string[] = [];
  for (const group of groups.values()) {
    const edited = group.files.map((f) => f.path);
    for (const file of await findDependents(edited, group.server.extensions, group.projectRoot)) {
      if (merged.has(file)) continue;
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text === null) continue;
      group.files.push({ path: file, before: text, after: text });
      added.push(file);
    }
  }
  return added;
}

/** The files of one server and project: all old contents first, then all new ones, then close them. */
async function collectGroup(
  ctx: CollectContext,
  group: Group,
  results: Map<string, Omit<FileDiagnostics, 'path'>>,
): Promise<void> {
  const { server } = group;
  const started = await ctx.client(server, group.projectRoot);
  if (!started.ok) {
    for (const file of group.files) {
      results.set(file.path, {
        status: started.status,
        diagnostics: [],
        omitted: 0,
        note: started.note,
        server: server.name,
      });
    }
    return;
  }
  const client = started.client;
  const timeoutMs = server.timeoutMs ?? ctx.timeoutMs;
  const docs: OpenDoc[] = group.files.map((file) => ({
    file,
    uri: pathToFileURL(file.path).href,
    opened: false,
  }));
  try {
    await readPhase(client, docs, 'before', timeoutMs, ctx.settleMs);
    await readPhase(client, docs, 'after', timeoutMs, ctx.settleMs);
  } finally {
    // Closed documents fall back to the disk, which already holds the new content.
    if (client.isAlive) for (const doc of docs) if (doc.opened) await client.closeDocument(doc.uri);
  }
  for (const doc of docs)
    results.set(doc.file.path, { ...fileResult(doc, ctx.maxPerFile), server: server.name });
}

/** Shows every file of the group at one side of the edit and reads its diagnostics there. */
async function readPhase(
  client: LanguageServerClient,
  docs: OpenDoc[],
  side: 'before' | 'after',
  timeoutMs: number,
  settleMs: number,
): Promise<void> {
  const waits: Promise<void>[] = [];
  for (const doc of docs) {
    const text = side === 'before' ? doc.file.before : doc.file.after;
    if (text === null) continue;
    // A document left open by someone else is reopened, so the versions below are ours.
    if (!doc.opened && client.isOpen(doc.uri)) await client.closeDocument(doc.uri);
    const since = client.lastPublish;
    const languageId = languageIdFor(client.server, doc.file.path);
    const version = doc.opened
      ? await client.changeDocument(doc.uri, text)
      : await client.openDocument(doc.uri, languageId, text);
    doc.opened = true;
    // Without the old diagnostics nothing can be called new; the new content is shown all the same,
    // because the other files of the group are read against it.
    if (doc.before && !doc.before.ok) continue;
    waits.push(
      client.diagnostics(doc.uri, version, since, timeoutMs, settleMs).then((answer) => {
        doc[side] = answer;
      }),
    );
  }
  await Promise.all(waits);
}

function fileResult(doc: OpenDoc, maxPerFile: number): Omit<FileDiagnostics, 'path'> {
  const { before, after } = doc;
  if (before && !before.ok) {
    return { status: before.status, diagnostics: [], omitted: 0, note: `before the edit: ${before.note}` };
  }
  if (!after)
    return { status: 'crashed', diagnostics: [], omitted: 0, note: 'the new content was never shown' };
  if (!after.ok) return { status: after.status, diagnostics: [], omitted: 0, note: after.note };
  const { listed, omitted } = capErrors(newErrors(before?.value ?? [], after.value), maxPerFile);
  return { status: 'ok', diagnostics: listed, omitted };
}
