/**
 * The malformed unified diffs of `*.patch` beside this file, each with what patchsmith must answer:
 * the error code and the line it names (1-based, in the patch as given; none for a whole-patch
 * EMPTY_PATCH) and a word of its message. Every patch applies to the tree `f` = `a\nb\nc\n` (plus
 * `extra` files), and a run must leave that tree byte-identical.
 */
import type { ErrorCode } from '@patchsmith/core';

export interface MalformedCase {
  /** The file name without `.patch`. */
  name: string;
  code: ErrorCode;
  line: number | undefined;
  message: RegExp;
  /** Files besides `f`. */
  extra?: Record<string, string>;
}

export const BASE_TREE: Readonly<Record<string, string>> = { f: 'a\nb\nc\n' };

export const MALFORMED_CASES: readonly MalformedCase[] = [
  // A hunk line that lost its prefix, or prose where hunk lines belong.
  { name: 'context-lost-space', code: 'PARSE_ERROR', line: 4, message: /the hunk is empty; found "a"/ },
  { name: 'context-lost-space-crlf', code: 'PARSE_ERROR', line: 4, message: /the hunk is empty/ },
  { name: 'prose-body', code: 'PARSE_ERROR', line: 4, message: /the hunk is empty/ },
  {
    name: 'prose-between-hunks',
    code: 'PARSE_ERROR',
    line: 8,
    message: /patch fragment without header.*line 7/,
  },
  {
    name: 'prose-between-hunks-short-counts',
    code: 'PARSE_ERROR',
    line: 7,
    message: /counts of the hunk at line 3/,
  },
  { name: 'prose-then-hunk-lines', code: 'PARSE_ERROR', line: 7, message: /hunk lines follow this line/ },
  {
    name: 'unprefixed-line-drops-additions',
    code: 'PARSE_ERROR',
    line: 5,
    message: /leading space; found "b"/,
  },
  { name: 'bare-hunk-unprefixed-line', code: 'PARSE_ERROR', line: 5, message: /hunk lines follow this line/ },
  { name: 'truncated-body-then-trailer', code: 'PARSE_ERROR', line: 7, message: /2 more old lines/ },
  { name: 'empty-hunk-at-end', code: 'PARSE_ERROR', line: 4, message: /the hunk is empty; found the end/ },
  { name: 'empty-hunk-before-next', code: 'PARSE_ERROR', line: 4, message: /the hunk is empty/ },
  // Text between a file's header and its hunk, or a hunk with no file.
  { name: 'junk-before-hunk', code: 'PARSE_ERROR', line: 3, message: /found "some junk"/ },
  { name: 'blank-and-prose-before-hunk', code: 'PARSE_ERROR', line: 3, message: /expected a hunk header/ },
  { name: 'fragment-without-header', code: 'PARSE_ERROR', line: 6, message: /patch fragment without header/ },
  { name: 'git-index-only', code: 'PARSE_ERROR', line: 3, message: /changes nothing/ },
  { name: 'git-junk-in-header', code: 'PARSE_ERROR', line: 3, message: /found "junk"/ },
  // Headers that contradict each other.
  { name: 'git-plus-name-differs', code: 'PARSE_ERROR', line: 3, message: /'\+\+\+ f-blah' contradicts/ },
  { name: 'git-minus-name-differs', code: 'PARSE_ERROR', line: 2, message: /'--- other' contradicts/ },
  { name: 'git-names-differ-without-rename', code: 'PARSE_ERROR', line: 1, message: /no 'rename from'/ },
  {
    name: 'git-new-file-and-rename',
    code: 'PARSE_ERROR',
    line: 3,
    message: /'new file mode' and 'rename from'/,
  },
  { name: 'git-new-and-deleted', code: 'PARSE_ERROR', line: 3, message: /'deleted file mode' contradict/ },
  { name: 'git-rename-from-alone', code: 'PARSE_ERROR', line: 2, message: /needs its 'rename to'/ },
  { name: 'git-rename-and-copy', code: 'PARSE_ERROR', line: 4, message: /'rename' and 'copy'/ },
  // git's t4133-apply-filenames and t4129-apply-samemode.
  {
    name: 'git-new-file-plus-name-differs',
    code: 'PARSE_ERROR',
    line: 5,
    message: /'\+\+\+ f-blah' contradicts/,
  },
  {
    name: 'git-deleted-minus-name-differs',
    code: 'PARSE_ERROR',
    line: 4,
    message: /'--- b\/f-blah' contradicts/,
  },
  { name: 'git-new-mode-garbage', code: 'PARSE_ERROR', line: 3, message: /six-digit octal mode/ },
  {
    name: 'git-new-file-not-dev-null',
    code: 'PARSE_ERROR',
    line: 3,
    message: /\/dev\/null, but '---' names n/,
  },
  { name: 'git-new-file-with-old-mode', code: 'PARSE_ERROR', line: 3, message: /'old mode'/ },
  { name: 'dev-null-both-sides', code: 'PARSE_ERROR', line: 2, message: /names no file/ },
  { name: 'epoch-both-sides', code: 'PARSE_ERROR', line: 2, message: /epoch timestamp/ },
  { name: 'quoted-name-not-utf8', code: 'PARSE_ERROR', line: 1, message: /not valid UTF-8/ },
  // Deletions and creations that keep or need content.
  { name: 'git-partial-deletion', code: 'NO_MATCH', line: 1, message: /removal patch leaves file contents/ },
  {
    name: 'epoch-deletion-leaves-contents',
    code: 'NO_MATCH',
    line: 1,
    message: /removal patch leaves file contents/,
  },
  { name: 'git-deletion-of-other-content', code: 'NO_MATCH', line: 5, message: /could not find/ },
  {
    name: 'deletion-still-has-contents',
    code: 'PARSE_ERROR',
    line: 7,
    message: /deleted file still has contents/,
  },
  {
    name: 'new-file-depends-on-old',
    code: 'PARSE_ERROR',
    line: 5,
    message: /new file depends on old contents/,
  },
  // `\ No newline at end of file` where it cannot be, or against the file.
  { name: 'no-newline-contradicts-file', code: 'NO_MATCH', line: 6, message: /does not end with a newline/ },
  { name: 'no-newline-mid-old-side', code: 'PARSE_ERROR', line: 5, message: /line 6 follows on that side/ },
  {
    name: 'no-newline-then-hunk',
    code: 'PARSE_ERROR',
    line: 6,
    message: /another hunk of this file follows/,
  },
  {
    name: 'no-newline-first-line',
    code: 'PARSE_ERROR',
    line: 4,
    message: /must follow the line it speaks of/,
  },
  // Patches that would change nothing.
  { name: 'no-op-hunk', code: 'EMPTY_PATCH', line: undefined, message: /^the patch changes nothing/ },
  {
    name: 'already-applied',
    code: 'EMPTY_PATCH',
    line: undefined,
    message: /^the patch looks already applied/,
  },
];
