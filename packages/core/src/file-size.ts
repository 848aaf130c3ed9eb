import { constants } from 'node:buffer';

/**
 * The largest file patchsmith reads to edit: V8's longest string (about 512 MiB), so that every
 * file it reads can be decoded. A larger one is `TOO_LARGE` before a byte of it is read: a hostile
 * tree's 20 GB file must not fill the memory, nor be called "not UTF-8".
 */
export const MAX_FILE_BYTES = constants.MAX_STRING_LENGTH;
