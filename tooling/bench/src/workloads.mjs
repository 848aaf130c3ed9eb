// Workloads: each builds a starting tree (files) and a patch, so every command starts from the
// same bytes. Lines are distinct so that exact chunks are unique, as in real code.

const line = (file, i) =>
  `    const value_${file}_${i} = compute(${i}, "${(i * 7919) % 10007}"); // line ${i}`;

function bigFile(n, file = 0) {
  return Array.from({ length: n }, (_, i) => line(file, i));
}

/** `count` evenly spread chunks over an n-line file: 3 context lines, one line replaced. */
function spreadChunks(lines, count, { drift = false } = {}) {
  const out = [];
  const step = Math.floor(lines.length / count);
  for (let c = 0; c < count; c++) {
    const at = c * step + Math.floor(step / 2);
    const ctx = (i) => ` ${lines[i]}${drift ? '  ' : ''}`;
    out.push(
      '@@',
      ctx(at - 3),
      ctx(at - 2),
      ctx(at - 1),
      `-${lines[at]}`,
      `+${lines[at].replace('compute', 'recompute')}`,
    );
  }
  return out;
}

const codex = (body) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

export function startup() {
  const lines = bigFile(10);
  return {
    files: { 'a.txt': `${lines.join('\n')}\n` },
    patch: codex(['*** Update File: a.txt', `-${lines[4]}`, `+${lines[4]} // edited`]),
  };
}

export function chunks100k({ drift }) {
  const lines = bigFile(100_000);
  return {
    files: { 'big.ts': `${lines.join('\n')}\n` },
    patch: codex(['*** Update File: big.ts', ...spreadChunks(lines, 200, { drift })]),
  };
}

export function oneChunk2k() {
  const lines = bigFile(2_000);
  return {
    files: { 'mid.ts': `${lines.join('\n')}\n` },
    patch: codex(['*** Update File: mid.ts', ...spreadChunks(lines, 1)]),
  };
}

/** 1,000 files of about 2 KB, each updated by one chunk. */
export function files1000() {
  const files = {};
  const body = [];
  for (let f = 0; f < 1_000; f++) {
    const lines = bigFile(25, f);
    files[`src/m${Math.floor(f / 100)}/f${f}.ts`] = `${lines.join('\n')}\n`;
    body.push(`*** Update File: src/m${Math.floor(f / 100)}/f${f}.ts`, ...spreadChunks(lines, 1));
  }
  return { files, patch: codex(body) };
}

/** A patch of about 10 MB: many new files (parse-dominated). */
export function addTenMegabytes() {
  const body = [];
  let size = 0;
  for (let f = 0; size < 10 * 1024 * 1024; f++) {
    body.push(`*** Add File: gen/g${f}.ts`);
    for (let i = 0; i < 400; i++) {
      const l = `+${line(f, i)}`;
      body.push(l);
      size += l.length + 1;
    }
  }
  return { files: {}, patch: codex(body) };
}

const BIG = 200_000;
const unified = (path, hunks) => [`--- a/${path}`, `+++ b/${path}`, ...hunks, ''].join('\n');

/** A 200,000-line file and one exact chunk in its middle (passes 1 only). */
export function exact200k() {
  const lines = bigFile(BIG);
  const at = BIG / 2;
  return {
    files: { 'big.ts': `${lines.join('\n')}\n` },
    patch: codex([
      '*** Update File: big.ts',
      '@@',
      ` ${lines[at - 1]}`,
      `-${lines[at]}`,
      `+${lines[at]} // edited`,
      ` ${lines[at + 1]}`,
    ]),
  };
}

/**
 * A 200,000-line file and one chunk whose indentation drifted: by one uniform prefix (pass 3), or
 * unevenly (pass 4). Passes 1 and 2 find nothing first, so each scans the whole file.
 */
export function drift200k({ uneven }) {
  const lines = bigFile(BIG);
  const at = BIG / 2;
  const indent = (text, k) => (uneven ? `${' '.repeat(k % 3)}${text.trimStart()}` : `  ${text}`);
  return {
    files: { 'big.ts': `${lines.join('\n')}\n` },
    patch: codex([
      '*** Update File: big.ts',
      '@@',
      ` ${indent(lines[at - 2], 0)}`,
      ` ${indent(lines[at - 1], 1)}`,
      `-${indent(lines[at], 2)}`,
      `+${indent(lines[at], 2)} // edited`,
      ` ${indent(lines[at + 1], 3)}`,
    ]),
  };
}

/**
 * 200,000 lines of `}` and a unified hunk whose `@@ -N` line hint picks one of the 200,000
 * candidates: three context lines exact, or a 200-line block indented by two spaces (pass 3 on
 * every candidate).
 */
export function braces200k({ indented }) {
  const files = { 'braces.txt': '}\n'.repeat(BIG) };
  if (!indented) {
    return {
      files,
      patch: unified('braces.txt', ['@@ -150000,3 +150000,3 @@', ' }', '-}', '+} // edited', ' }']),
    };
  }
  const context = Array.from({ length: 199 }, () => '   }');
  return {
    files,
    patch: unified('braces.txt', ['@@ -150000,200 +150000,200 @@', ...context, '-  }', '+  } // edited']),
  };
}

/** 150,000 chunks none of which matches a 1,000-line file: every one is reported. */
export function failing150k() {
  const lines = bigFile(1_000);
  const body = ['*** Update File: small.ts'];
  for (let c = 0; c < 150_000; c++) body.push('@@', `-missing line ${c}`, `+new line ${c}`);
  return { files: { 'small.ts': `${lines.join('\n')}\n` }, patch: codex(body) };
}

/**
 * `count` str_replace edits evenly spread over an n-line file, each the 3 lines above a line and
 * that line, the line changed as `spreadChunks` changes it; and the same change as one Codex patch.
 * With `drift`, the 3 lines above carry two trailing spaces the file lacks (SPEC §2 pass 2); with
 * `oneLine`, each edit is the changed line alone (a search within a line).
 */
export function strReplace100k({ count, drift = false, oneLine = false }) {
  const lines = bigFile(100_000);
  const step = Math.floor(lines.length / count);
  const edits = [];
  for (let c = 0; c < count; c++) {
    const at = c * step + Math.floor(step / 2);
    const above = oneLine ? [] : lines.slice(at - 3, at).map((l) => (drift ? `${l}  ` : l));
    edits.push({
      command: 'str_replace',
      path: 'big.ts',
      old_str: [...above, lines[at]].join('\n'),
      new_str: [...above, lines[at].replace('compute', 'recompute')].join('\n'),
    });
  }
  return {
    files: { 'big.ts': `${lines.join('\n')}\n` },
    edits: JSON.stringify(edits),
    patch: codex(['*** Update File: big.ts', ...spreadChunks(lines, count, { drift })]),
  };
}
