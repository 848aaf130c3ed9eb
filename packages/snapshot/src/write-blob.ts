import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import git from 'isomorphic-git';
import type { Store } from './store.js';

const deflateAsync = promisify(deflate);

/**
 * Stores `bytes` as a loose git blob and returns its id. Same object as `git.writeBlob`, but
 * hashed and compressed with Node's native crypto and zlib (isomorphic-git's portable path goes
 * through web streams, several times slower on a thousand-file snapshot); isomorphic-git still
 * does the writing, and skips an object that already exists.
 */
export async function writeBlob(store: Store, bytes: Uint8Array): Promise<string> {
  const wrapped = Buffer.concat([Buffer.from(`blob ${bytes.byteLength}\0`), bytes]);
  const oid = createHash('sha1').update(wrapped).digest('hex');
  const object = await deflateAsync(wrapped);
  return git.writeObject({
    fs: store.fs,
    gitdir: store.gitdir,
    type: 'blob',
    object,
    format: 'deflated',
    oid,
  });
}
