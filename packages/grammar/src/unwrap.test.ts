import { describe, expect, it } from 'vitest';
import { unwrapPatch } from './unwrap.js';

describe('unwrapPatch', () => {
  it.each([
    ['plain text is kept', 'a\nb\n', 'a\nb', 1],
    ['surrounding blank lines go, the first line number is kept', '\n \t\n\na\nb\n\n  \n', 'a\nb', 4],
    ['CRLF becomes LF, a final lone \\r too', 'a\r\nb\r', 'a\nb', 1],
    ['a \\r inside a line is content', 'a\rb\n', 'a\rb', 1],
    ['a BOM goes', '\ufeffa\n', 'a', 1],
    ['a fence goes', '```patch\na\n```\n', 'a', 2],
    ['fences of different kinds are not a pair', '```\na\n~~~\n', '```\na\n~~~', 1],
    ['a shorter closing fence is not a pair', '````\na\n```\n', '````\na\n```', 1],
    ['a heredoc goes', "cat <<'EOF'\na\nEOF\n", 'a', 2],
    ['a heredoc needs its own delimiter', '<<EOF\na\nEND\n', '<<EOF\na\nEND', 1],
    ['wrappers nest, blank lines between them', '\n```sh\n\napply_patch <<"X"\n\na\nX\n```\n', 'a', 6],
    ['padding on the kept lines stays', ' a \n b \n', ' a \n b ', 1],
    ['only blank lines: nothing', ' \n\n\t\n', '', 1],
    ['an empty fence: nothing', '```\n```\n', '', 1],
    ['a fence holding only blank lines: nothing', '```\n\n \n```', '', 1],
    ['a first line that is empty is counted', '\nx', 'x', 2],
  ])('%s', (_name, text, body, firstLine) => {
    expect(unwrapPatch(text)).toStrictEqual({ body, firstLine });
  });
});
