/**
 * Builds a git repository with a long history of realistic edits made with the git CLI: line edits,
 * added and deleted files, renames (with and without edits, into new folders), mode changes, files
 * without a final newline, CRLF files, LF/CRLF conversions, empty files, names that git quotes, and
 * binary files (`*.bin`, holding NUL bytes: added, rewritten, edited in place so that git writes a
 * delta, renamed with and without edits, made executable, deleted). Deterministic for a seed.
 */
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git } from './git-trees.js';

/** mulberry32: small, fast, deterministic. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'omega',
  'sigma',
  'kappa',
  'lambda',
  'theta',
  'zeta',
  'rho',
  'tau',
];
const FOLDERS = ['src', 'src/util', 'lib', 'docs', 'scripts', 'win', 'deep/er/still'];
const NAMES = [
  'main',
  'helper',
  'notes',
  'config',
  'naïve file',
  'with space',
  'q"uote',
  'data',
  'index',
  'run',
];
const EXTENSIONS = ['.ts', '.py', '.md', '.txt', '.sh'];

interface TextFile {
  lines: string[];
  crlf: boolean;
  finalNewline: boolean;
  executable: boolean;
}

export interface History {
  repo: string;
  /** Commit ids, oldest first. */
  commits: string[];
}

export async function generateHistory(repo: string, commitCount: number, seed: number): Promise<History> {
  const rand = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const int = (n: number) => Math.floor(rand() * n);
  let counter = 0;
  const files = new Map<string, TextFile>();
  /** Binary files and whether each is executable. */
  const binaries = new Map<string, { bytes: Buffer; executable: boolean }>();

  /** A line of code-like text; most are unique, a few (braces, blanks) repeat as in real files. */
  const line = (): string => {
    const r = rand();
    if (r < 0.08) return '';
    if (r < 0.14) return '}';
    const indent = '  '.repeat(int(3));
    return `${indent}${pick(WORDS)}_${counter++} = ${pick(WORDS)}(${int(100)});${rand() < 0.05 ? '  ' : ''}`;
  };
  const lines = (n: number) => Array.from({ length: n }, line);
  const newPath = (binary = false): string => {
    for (;;) {
      const path = `${pick(FOLDERS)}/${pick(NAMES)}${counter++ % 7}${binary ? '.bin' : pick(EXTENSIONS)}`;
      if (!files.has(path) && !binaries.has(path)) return path;
    }
  };
  const textPaths = () => [...files.keys()];

  const write = async (path: string) => {
    const file = files.get(path)!;
    const eol = file.crlf ? '\r\n' : '\n';
    const body = file.lines.join(eol) + (file.finalNewline && file.lines.length > 0 ? eol : '');
    const full = join(repo, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, body);
    await chmod(full, file.executable ? 0o755 : 0o644);
  };
  const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const writeBinary = async (path: string, bytes: Buffer, executable = false) => {
    bytes[0] = 0;
    const full = join(repo, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, bytes);
    await chmod(full, executable ? 0o755 : 0o644);
    binaries.set(path, { bytes, executable });
  };
  /** A few bytes overwritten, inserted or cut out: a change git writes as a delta. */
  const editBytes = (bytes: Buffer): Buffer => {
    const at = int(bytes.length);
    const r = rand();
    if (r < 0.4)
      return Buffer.concat([bytes.subarray(0, at), randomBytes(1 + int(8)), bytes.subarray(at + 1 + int(8))]);
    if (r < 0.7) return Buffer.concat([bytes.subarray(0, at), randomBytes(1 + int(40)), bytes.subarray(at)]);
    return Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + 1 + int(30)))]);
  };
  /** One change to the binary files: add, rewrite, edit, rename, chmod or delete. */
  const changeBinary = async (): Promise<string> => {
    const existing = [...binaries.keys()];
    const r = rand();
    if (existing.length === 0 || r < 0.2) {
      const path = newPath(true);
      await writeBinary(path, randomBytes(32 + int(1500)));
      return `add binary ${path}`;
    }
    const path = pick(existing);
    const file = binaries.get(path)!;
    if (r < 0.3) {
      await writeBinary(path, randomBytes(32 + int(1500)), file.executable);
      return `rewrite binary ${path}`;
    }
    if (r < 0.6) {
      await writeBinary(path, editBytes(file.bytes), file.executable);
      return `edit binary ${path}`;
    }
    if (r < 0.75) {
      const to = newPath(true);
      binaries.delete(path);
      await rm(join(repo, path));
      await writeBinary(to, rand() < 0.5 ? editBytes(file.bytes) : file.bytes, file.executable);
      return `rename binary ${path} to ${to}`;
    }
    if (r < 0.88) {
      await writeBinary(path, rand() < 0.5 ? editBytes(file.bytes) : file.bytes, !file.executable);
      return `chmod binary ${path}`;
    }
    binaries.delete(path);
    await rm(join(repo, path));
    return `delete binary ${path}`;
  };
  const addText = async (options: Partial<TextFile> = {}) => {
    const path = newPath();
    files.set(path, {
      lines: lines(5 + int(40)),
      crlf: path.startsWith('win/') || rand() < 0.1,
      finalNewline: rand() > 0.15,
      executable: path.endsWith('.sh'),
      ...options,
    });
    await write(path);
  };

  /** Replaces, inserts or removes a few lines somewhere, as an edit by hand would. */
  const editLines = (file: TextFile) => {
    for (let k = 1 + int(3); k > 0; k--) {
      const at = int(file.lines.length + 1);
      const r = rand();
      if (r < 0.4) file.lines.splice(at, Math.min(1 + int(3), file.lines.length - at), ...lines(1 + int(3)));
      else if (r < 0.75) file.lines.splice(at, 0, ...lines(1 + int(4)));
      else file.lines.splice(at, 1 + int(2));
    }
  };

  await mkdir(repo, { recursive: true });
  git(repo, ['init', '-q', '-b', 'main']);
  for (let i = 0; i < 14; i++) await addText();
  await addText({ lines: [], finalNewline: false });
  await writeBinary(newPath(true), randomBytes(600));
  const commits: string[] = [];
  const commit = (message: string) => {
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '--allow-empty', '-m', message]);
    commits.push(git(repo, ['rev-parse', 'HEAD']).toString().trim());
  };
  commit('initial');

  while (commits.length < commitCount) {
    const paths = textPaths();
    const path = pick(paths);
    const file = files.get(path)!;
    const r = rand();
    let message: string;
    if (r < 0.45) {
      editLines(file);
      await write(path);
      message = `edit ${path}`;
    } else if (r < 0.55) {
      await addText();
      message = 'add a file';
    } else if (r < 0.62 && paths.length > 6) {
      files.delete(path);
      await rm(join(repo, path));
      message = `delete ${path}`;
    } else if (r < 0.72 && file.lines.length >= 4) {
      const to = newPath();
      files.delete(path);
      await rm(join(repo, path));
      if (rand() < 0.5) file.lines.splice(int(file.lines.length), 0, line());
      files.set(to, file);
      await write(to);
      message = `rename ${path} to ${to}`;
    } else if (r < 0.8) {
      file.executable = !file.executable;
      if (rand() < 0.5) editLines(file);
      await write(path);
      message = `chmod ${path}`;
    } else if (r < 0.86) {
      file.finalNewline = !file.finalNewline;
      if (rand() < 0.5) editLines(file);
      await write(path);
      message = `final newline of ${path}`;
    } else if (r < 0.9) {
      file.crlf = !file.crlf;
      await write(path);
      message = `line endings of ${path}`;
    } else if (r < 0.97) {
      message = await changeBinary();
    } else {
      // Several files in one commit.
      for (const other of paths.slice(0, 1 + int(4))) {
        editLines(files.get(other)!);
        await write(other);
      }
      await addText({ lines: [], finalNewline: true });
      if (rand() < 0.5) await changeBinary();
      message = 'many files';
    }
    commit(message);
  }
  return { repo, commits };
}
