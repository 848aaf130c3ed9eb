/**
 * File types in a mode, as git records them: a plan's mode is a file's permission bits, or
 * `SYMLINK_MODE` for a symbolic link, whose bytes are then the link's target (git's mode 120000,
 * whose blob is the target).
 */

/** git's mode of a symbolic link (and the type bits of one in `stat`). */
export const SYMLINK_MODE = 0o120000;

const FILE_TYPE_MASK = 0o170000;

/** The mode is a symbolic link's. */
export const isSymlinkMode = (mode: number | undefined): boolean =>
  mode !== undefined && (mode & FILE_TYPE_MASK) === SYMLINK_MODE;
