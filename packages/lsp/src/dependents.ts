import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** A project is walked this far for importers, and no further: a hint, not a build. */
const MAX_SCANNED_FILES = 5_000;
/** Importers shown to the server per collection: each is one more document to check. */
export const MAX_DEPENDENTS = 50;
const MAX_SCANNED_BYTES = 512 * 1024;
// Folders that hold no source of the project's own.
const SKIPPED = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  '.venv',
  'venv',
  '__pycache__',
  '.patchsmith',
]);

const SCRIPT_EXTENSIONS = /\.(?:[cm]?[jt]sx?|d\.ts)$/;
// `from '…'`, `import '…'`, `import('…')`, `require('…')`, `export … from '…'`.
const SCRIPT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*(?:\(\s*)?|\brequire\s*\(\s*)['"]([^'"\n]+)['"]/g;
// `from .mod import x`, `from pkg.mod import x`, `from . import mod`.
// The module is one token (dots, a dotted name or both) so that no two blank runs meet: V8 would
// retry every split of a long run between them.
const PY_FROM = /^[ \t]*from[ \t]+(\.*\w[\w.]*|\.+)[ \t]+import[ \t]+(?:\([ \t]*)?([\w.,][\w., \t]*)/gm;
// `import pkg.mod, other`.
const PY_IMPORT = /^[ \t]*import[ \t]+([\w., \t]+)/gm;

/** A script path without its extension (`a/b.ts` and `a/b.js` name one module); `…/index` is the folder. */
function scriptModule(file: string): string {
  const bare = file.replace(SCRIPT_EXTENSIONS, '');
  return bare.endsWith(`${path.sep}index`) ? bare.slice(0, -`${path.sep}index`.length) : bare;
}

/** The modules (absolute, extension-less) a script file imports by a relative specifier. */
function scriptImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(SCRIPT_SPECIFIER)) {
    const specifier = match[1]!;
    if (specifier.startsWith('.')) out.push(scriptModule(path.resolve(path.dirname(file), specifier)));
  }
  return out;
}

/** A Python file's module path, extension-less (`pkg/mod`, `pkg` for `pkg/__init__.py`). */
function pythonModule(file: string): string {
  const bare = file.replace(/\.pyi?$/, '');
  return bare.endsWith(`${path.sep}__init__`) ? bare.slice(0, -`${path.sep}__init__`.length) : bare;
}

/** The modules (absolute, extension-less, and each of their packages) a Python file imports. */
function pythonImports(file: string, text: string, projectRoot: string): string[] {
  const out: string[] = [];
  const dotted = (base: string, name: string) => path.join(base, ...name.split('.').filter(Boolean));
  for (const match of text.matchAll(PY_FROM)) {
    const [, spec, names] = match;
    const dots = /^\.*/.exec(spec!)![0];
    const module = spec!.slice(dots.length);
    let base = projectRoot;
    if (dots.length > 0) {
      base = path.dirname(file);
      for (let up = 1; up < dots.length; up++) base = path.dirname(base);
    }
    const from = dotted(base, module);
    out.push(from);
    // `from pkg import mod` may import a module as well as a name.
    for (const name of names!.split(',')) {
      const bare = name.trim().split(/\s/)[0];
      if (bare) out.push(path.join(from, bare));
    }
  }
  for (const match of text.matchAll(PY_IMPORT)) {
    for (const name of match[1]!.split(',')) {
      const bare = name.trim().split(/\s/)[0];
      if (bare) out.push(dotted(projectRoot, bare));
    }
  }
  return out;
}

/** The files of the project with one of `extensions`, breadth first, bounded. */
async function projectFiles(projectRoot: string, extensions: readonly string[]): Promise<string[]> {
  const wanted = extensions.map((e) => e.toLowerCase());
  const files: string[] = [];
  const folders = [projectRoot];
  let seen = 0;
  while (folders.length > 0 && seen < MAX_SCANNED_FILES) {
    const folder = folders.shift()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      seen++;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) folders.push(full);
      else if (entry.isFile() && wanted.some((ext) => entry.name.toLowerCase().endsWith(ext)))
        files.push(full);
    }
  }
  return files;
}

/**
 * The files of the project that import one of the edited files (absolute paths), so the errors an
 * edit causes there (a renamed export, a changed signature) are found: the fallback for servers
 * without workspace diagnostics. Relative imports of scripts, and Python imports (relative, or
 * from the project root), are followed one level; at most `MAX_DEPENDENTS` files.
 */
export async function findDependents(
  edited: readonly string[],
  extensions: readonly string[],
  projectRoot: string,
): Promise<string[]> {
  const editedSet = new Set(edited);
  const modules = new Set(
    edited.map((f) => (f.endsWith('.py') || f.endsWith('.pyi') ? pythonModule(f) : scriptModule(f))),
  );
  const dependents: string[] = [];
  for (const file of await projectFiles(projectRoot, extensions)) {
    if (dependents.length >= MAX_DEPENDENTS) break;
    if (editedSet.has(file)) continue;
    const size = await stat(file).then(
      (s) => s.size,
      () => Infinity,
    );
    if (size > MAX_SCANNED_BYTES) continue;
    const text = await readFile(file, 'utf8').catch(() => '');
    const python = file.endsWith('.py') || file.endsWith('.pyi');
    const imports = python ? pythonImports(file, text, projectRoot) : scriptImports(file, text);
    if (imports.some((m) => modules.has(m))) dependents.push(file);
  }
  return dependents;
}
