import * as nodeFs from 'node:fs';

/** The subset of `fs.Stats` this package reads. */
export interface SnapshotStats {
  mode: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

// isomorphic-git calls these with its own arguments; we only need them to exist.
type PassThrough = (...args: never[]) => unknown;

/**
 * The promise-based file system used both to read the work tree and, through isomorphic-git, to
 * write the snapshot store. Node's `fs` module satisfies it; tests may wrap it.
 */
export interface SnapshotFs {
  promises: {
    readFile(path: string): Promise<Uint8Array>;
    readFile(path: string, encoding: 'utf8'): Promise<string>;
    stat(path: string): Promise<SnapshotStats>;
    realpath(path: string): Promise<string>;
    writeFile: PassThrough;
    unlink: PassThrough;
    readdir: PassThrough;
    mkdir: PassThrough;
    rmdir: PassThrough;
    lstat(path: string): Promise<unknown>;
    readlink?: PassThrough;
    symlink?: PassThrough;
    chmod?: PassThrough;
  };
}

export const defaultFs: SnapshotFs = nodeFs;
