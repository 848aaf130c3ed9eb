/**
 * What a model writes in place of code it did not repeat: a whole-line comment that says code was
 * left out (`// ... existing code ...`, `# ... rest of the function unchanged`, `/* ... *\/`,
 * `<!-- ... -->`), or a bare `...` line. Small predicates, each tuned so that real comments
 * (`// Loading...`, `# retry a few times...`) and real code (Python's `...` body) are not matched.
 */

/** An ellipsis: three dots (maybe spaced) or the `…` character. */
const ELLIPSIS = /\.\s?\.\s?\.|…/;
/** The text starts with an ellipsis (`... rest`), as placeholders do and sentences do not. */
const LEADING_ELLIPSIS = /^(?:\.\s?\.\s?\.|…)/;
/** Nothing but dots and spaces, at least an ellipsis: `...`, `. . .`, `…`. */
const DOTS_ONLY = /^(?:\.\s?){2,}\.$|^…$/;
/** Words that say code was left out wherever the ellipsis stands (`existing code...`). */
const STRONG_WORDS =
  /\b(?:existing (?:code|implementation|logic|content)|unchanged|omitted|elided|remaining|remainder|rest of|as before|same as before|everything else|etc)\b/i;
/** Words that say so only after a leading ellipsis (`... other methods`): `Load more...` is a sentence. */
const WEAK_WORDS =
  /\b(?:existing|rest|same|previous|original|other|more|code|here|above|below|snip|truncated)\b/i;
/** The text without the brackets around it: `(...)`, `[... rest ...]`. */
function withoutBrackets(text: string): string {
  let inner = text;
  if (/^[([{]/.test(inner)) inner = inner.slice(1).trimStart();
  if (/[)\]}]$/.test(inner)) inner = inner.slice(0, -1).trimEnd();
  return inner;
}
/** Code a placeholder says is left out, by name. */
const CODE_NOUN =
  '(?:code|file|function|method|class|implementation|component|module|body|logic|content|contents|tests?|methods|functions|fields|properties|imports|cases|handlers|styles|rules|config(?:uration)?|lines|stuff)';
/** Words that may follow such a phrase: `existing code here`, `rest of the file remains the same`. */
const TAIL =
  '(?:\\s+(?:here|below|above|unchanged|omitted|as before|as is|the same|for brevity|remains?|stays?|is|are|goes|go))*[.:]?';
/**
 * Phrases that say so without an ellipsis, as the whole comment: `existing code`, `rest of the
 * function unchanged`, `implementation unchanged`. Not `Unchanged lines are kept`: a sentence.
 */
export const ELISION_PHRASES = [
  new RegExp(
    `^(?:keep(?:ing)? )?(?:the )?(?:rest of (?:the |this )?${CODE_NOUN}|existing ${CODE_NOUN}|(?:other|remaining|previous|original) ${CODE_NOUN})${TAIL}$`,
    'i',
  ),
  new RegExp(
    `^(?:the )?(?:rest|${CODE_NOUN})(?: of the ${CODE_NOUN})? (?:is |are |remains? |stays? )?(?:unchanged|the same|as before|omitted)${TAIL}$`,
    'i',
  ),
];

/**
 * A comment syntax, as a whole (trimmed) line: the comment's text, markers stripped, or null when
 * the line is not one. Written with slices rather than `/^\/\*\s*(.*?)\s*\*\/$/`-style patterns:
 * V8 backtracks those cubically, and a model's line of 8,000 spaces after `/*` took 86 s.
 */
type CommentForm = (line: string) => string | null;

/** The text between `open` and `close` markers that the line starts and ends with, or null. */
function between(line: string, open: string, close: string): string | null {
  if (line.length < open.length + close.length || !line.startsWith(open) || !line.endsWith(close))
    return null;
  return line.slice(open.length, line.length - close.length);
}

/** The line after a run of `marker` characters it starts with, or null. */
function afterRun(line: string, marker: string): string | null {
  let at = 0;
  while (line[at] === marker) at++;
  return at === 0 ? null : line.slice(at);
}

/** `#` followed at once by what is code, not a comment: `#!`, `#[attr]`, the C preprocessor. */
const HASH_CODE = /^(?:[![]|(?:include|define|if|endif|pragma)\b)/;

/** `<!-- ... -->`: HTML, XML, Markdown. */
const htmlComment: CommentForm = (line) => between(line, '<!--', '-->');

const COMMENT_FORMS: ReadonlyArray<CommentForm> = [
  // C, Java, JS, Go, Rust, Swift, Kotlin (`//!` doc comments too)
  (line) => {
    const text = afterRun(line, '/');
    if (text === null || !line.startsWith('//')) return null;
    return text.startsWith('!') ? text.slice(1) : text;
  },
  // shell, Python, Ruby, YAML (not `#!`, `#[attr]`, the preprocessor)
  (line) => {
    const text = afterRun(line, '#');
    if (text === null || !HASH_CODE.test(text)) return text;
    // `##include`: a comment whose text is `#include`.
    return line.startsWith('##') ? `#${text}` : null;
  },
  // /* ... */ and JSX's {/* ... */}, any number of stars on either side
  (line) => {
    const unbraced = line.slice(line.startsWith('{') ? 1 : 0, line.endsWith('}') ? -1 : undefined);
    const inner = between(unbraced, '/*', '*/');
    if (inner === null) return null;
    let from = 0;
    let to = inner.length;
    while (inner[from] === '*') from++;
    while (to > from && inner[to - 1] === '*') to--;
    return inner.slice(from, to);
  },
  htmlComment,
  // SQL, Lua, Haskell (a space after `--`: `--flag  help text` is not one)
  (line) => (line.startsWith('--') && (line.length === 2 || /\s/.test(line[2]!)) ? line.slice(2) : null),
  // Lisp, assembly, INI
  (line) => afterRun(line, ';'),
  // TeX, Erlang, MATLAB
  (line) => afterRun(line, '%'),
  // OCaml, Pascal
  (line) => between(line, '(*', '*)'),
];

/** The text of a whole-line comment (markers stripped, trimmed), or null. */
function commentText(line: string, forms: ReadonlyArray<CommentForm>): string | null {
  for (const form of forms) {
    const text = form(line);
    if (text !== null) return text.trim();
  }
  return null;
}

/** Comment text that says code was left out. */
export function saysElided(comment: string): boolean {
  const text = withoutBrackets(comment);
  if (DOTS_ONLY.test(text)) return true;
  if (LEADING_ELLIPSIS.test(text) && WEAK_WORDS.test(text)) return true;
  if (ELLIPSIS.test(text) && STRONG_WORDS.test(text)) return true;
  return ELISION_PHRASES.some((phrase) => phrase.test(text));
}

/** Files of prose, where `// ...` in an example is content: only an HTML comment placeholder counts there. */
const PROSE = /\.(?:md|markdown|mdx|rst|txt|text|adoc|asciidoc)$/i;
/** Files where a bare `...` line is code (Python's Ellipsis as a body). */
const ELLIPSIS_IS_CODE = /\.(?:py|pyi|pyw)$/i;

/** What the lines around a candidate say about it. */
export interface LineContext {
  /** The file's path, for its kind (prose, Python). */
  path: string;
  /** The new side's previous line (empty at the top). */
  previous: string;
}

/** A bare `...` line that is code or prose, not a placeholder: Python's body after `:`, a doctest continuation. */
function bareEllipsisIsCode(context: LineContext): boolean {
  const previous = context.previous.trim();
  if (previous.startsWith('>>>') || previous.startsWith('...')) return true;
  return ELLIPSIS_IS_CODE.test(context.path) && previous.endsWith(':');
}

/** The line (any indentation) stands for code left out: a placeholder comment or a bare `...`. */
export function isPlaceholderLine(line: string, context: LineContext): boolean {
  const trimmed = line.trim();
  if (trimmed === '') return false;
  if (PROSE.test(context.path)) {
    const html = commentText(trimmed, [htmlComment]);
    return html !== null && saysElided(html);
  }
  if (DOTS_ONLY.test(trimmed)) return !bareEllipsisIsCode(context);
  const comment = commentText(trimmed, COMMENT_FORMS);
  return comment !== null && saysElided(comment);
}
