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
/** Brackets around a placeholder's text: `(...)`, `[... rest ...]`. */
const BRACKETS = /^[([{]\s*|\s*[)\]}]$/g;
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
const ELISION_PHRASES = [
  new RegExp(
    `^(?:keep(?:ing)? )?(?:the )?(?:rest of (?:the |this )?${CODE_NOUN}|existing ${CODE_NOUN}|(?:other|remaining|previous|original) ${CODE_NOUN})${TAIL}$`,
    'i',
  ),
  new RegExp(
    `^(?:the )?(?:rest|${CODE_NOUN})(?: of the ${CODE_NOUN})? (?:is |are |remains? |stays? )?(?:unchanged|the same|as before|omitted)${TAIL}$`,
    'i',
  ),
];

/** Comment syntaxes, as a whole line: the comment's text, or null when the line is not one. */
const COMMENT_FORMS: ReadonlyArray<RegExp> = [
  /^\/\/+!?\s*(.*)$/, // C, Java, JS, Go, Rust, Swift, Kotlin
  /^#+\s*(?![![]|include\b|define\b|if\b|endif\b|pragma\b)(.*)$/, // shell, Python, Ruby, YAML (not `#!`, `#[attr]`, the preprocessor)
  /^\{?\/\*+\s*(.*?)\s*\*+\/\}?$/, // /* ... */ and JSX's {/* ... */}
  /^<!--\s*(.*?)\s*-->$/, // HTML, XML, Markdown
  /^--(?=\s|$)\s*(.*)$/, // SQL, Lua, Haskell (a space after `--`: `--flag  help text` is not one)
  /^;+\s*(.*)$/, // Lisp, assembly, INI
  /^%+\s*(.*)$/, // TeX, Erlang, MATLAB
  /^\(\*\s*(.*?)\s*\*\)$/, // OCaml, Pascal
];

/** The text of a whole-line comment (markers stripped), or null. */
function commentText(line: string, forms: ReadonlyArray<RegExp>): string | null {
  for (const form of forms) {
    const m = form.exec(line);
    if (m !== null) return m[1]!.trim();
  }
  return null;
}

/** Comment text that says code was left out. */
export function saysElided(comment: string): boolean {
  const text = comment.replace(BRACKETS, '');
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
    const html = commentText(trimmed, [COMMENT_FORMS[3]!]);
    return html !== null && saysElided(html);
  }
  if (DOTS_ONLY.test(trimmed)) return !bareEllipsisIsCode(context);
  const comment = commentText(trimmed, COMMENT_FORMS);
  return comment !== null && saysElided(comment);
}
