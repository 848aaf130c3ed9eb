/**
 * No regular expression in the shipped source backtracks super-linearly. The model's text and the
 * repository's files are untrusted input, and V8's engine retries an ambiguous pattern from every
 * position: `/^\{?\/\*+\s*(.*?)\s*\*+\/\}?$/` took 86 s on a line of 8,000 spaces. Every regex
 * literal of packages/ and apps/ (not tests) is found with the TypeScript parser and checked with
 * recheck (a ReDoS checker that proves linearity or finds an attack string).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The shipped TypeScript files: sources of packages and apps, without tests and test support. */
function shippedSources(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', 'packages/*/src/*', 'apps/*/src/*'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\0')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('/test-support/'));
}

interface Literal {
  where: string;
  source: string;
  flags: string;
}

/** Every regular-expression literal of a file, with its place. */
function regexLiterals(file: string): Literal[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Literal[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(tree);
      const end = literal.lastIndexOf('/');
      const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
      found.push({ where: `${file}:${line}`, source: literal.slice(1, end), flags: literal.slice(end + 1) });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe('regular expressions', () => {
  it('finds the literals it checks (the scan cannot pass by finding none)', () => {
    const literals = shippedSources().flatMap(regexLiterals);
    expect(literals.length).toBeGreaterThan(100);
    expect(literals.some((l) => l.where.startsWith('packages/grammar/src/fences.ts'))).toBe(true);
  });

  it('knows an unsafe one when it sees it', async () => {
    const verdict = await check(String.raw`^\{?\/\*+\s*(.*?)\s*\*+\/\}?$`, '');
    expect(verdict.status).toBe('vulnerable');
  });

  it('are all linear in the length of what they match', { timeout: 300_000 }, async () => {
    const literals = shippedSources().flatMap(regexLiterals);
    const unique = new Map<string, Literal>();
    for (const literal of literals) unique.set(`/${literal.source}/${literal.flags}`, literal);
    const verdicts = await Promise.all(
      [...unique.values()].map(async (literal) => {
        // `d`/`v` change nothing about backtracking; recheck does not take them.
        const verdict = await check(literal.source, literal.flags.replace(/[dv]/g, ''), { timeout: 60_000 });
        return verdict.status === 'safe'
          ? null
          : `${literal.where} /${literal.source}/${literal.flags}: ${verdict.status}${
              verdict.status === 'vulnerable'
                ? ` (${verdict.complexity.type}; attack ${verdict.attack.pattern})`
                : ''
            }`;
      }),
    );
    expect(verdicts.filter((v) => v !== null)).toEqual([]);
  });
});
