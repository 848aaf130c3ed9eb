import git from 'isomorphic-git';
import type { Store } from './store.js';

/** One file to put in a tree: its path below the tree, blob id and git mode. */
export interface TreeFile {
  path: string;
  blob: string;
  /** Git only knows 100644 and 100755 for a file's blob. */
  executable: boolean;
  /** The blob is a symbolic link's target (git's 120000). */
  link?: boolean;
}

interface Folder {
  files: Map<string, TreeFile>;
  folders: Map<string, Folder>;
}

const emptyFolder = (): Folder => ({ files: new Map(), folders: new Map() });

function folderFor(top: Folder, segments: readonly string[]): Folder {
  let folder = top;
  for (const segment of segments) {
    let next = folder.folders.get(segment);
    if (!next) folder.folders.set(segment, (next = emptyFolder()));
    folder = next;
  }
  return folder;
}

async function writeFolder(store: Store, folder: Folder): Promise<string> {
  const entries: { mode: string; path: string; oid: string; type: 'blob' | 'tree' }[] = [];
  for (const [name, file] of folder.files) {
    const mode = file.link ? '120000' : file.executable ? '100755' : '100644';
    entries.push({ mode, path: name, oid: file.blob, type: 'blob' });
  }
  for (const [name, sub] of folder.folders) {
    entries.push({ mode: '040000', path: name, oid: await writeFolder(store, sub), type: 'tree' });
  }
  // writeTree sorts the entries in git's order itself.
  return git.writeTree({ fs: store.fs, gitdir: store.gitdir, tree: entries });
}

/**
 * Writes nested tree objects for `files` (paths `/`-separated) and returns the top tree's id.
 * The paths come from one disk state, so no path is both a file and a folder.
 */
export async function writeNestedTree(store: Store, files: readonly TreeFile[]): Promise<string> {
  const top = emptyFolder();
  for (const file of files) {
    const segments = file.path.split('/');
    const name = segments.pop()!;
    folderFor(top, segments).files.set(name, file);
  }
  return writeFolder(store, top);
}
