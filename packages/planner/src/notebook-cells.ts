import { type Node, parseTree } from 'jsonc-parser';

/** The cell types nbformat 4 knows; a notebook with another is edited as JSON text. */
export const CELL_TYPES = ['code', 'markdown', 'raw'] as const;
export type CellType = (typeof CELL_TYPES)[number];

/** One cell as read, with where its parts are in the notebook's text. */
export interface NotebookCell {
  type: CellType;
  source: string;
  /** nbformat allows the source as one string or a list of lines; each cell keeps its own. */
  sourceAsLines: boolean;
  node: Node;
  typeNode: Node;
  sourceNode: Node;
  outputsNode?: Node;
  countNode?: Node;
}

/** A notebook's text, its cells, and the style it was written in (kept when it is printed back). */
export interface Notebook {
  text: string;
  cells: NotebookCell[];
  cellsNode: Node;
  /** One level of indentation (`null`: written on one line). */
  indent: string | null;
  eol: '\n' | '\r\n';
  /** Non-ASCII characters are written as `\uXXXX` escapes (Python's `ensure_ascii`). */
  asciiOnly: boolean;
  /** Cells carry ids (nbformat 4.5): a new cell gets one. */
  hasIds: boolean;
}

/** The value node of a property of an object node. */
export function propertyNode(object: Node, key: string): Node | undefined {
  return object.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];
}

/** A cell's source as one string: nbformat's list of lines is joined. */
function sourceOf(node: Node): { source: string; asLines: boolean } | null {
  if (node.type === 'string') return { source: node.value as string, asLines: false };
  if (node.type !== 'array' || !node.children?.every((c) => c.type === 'string')) return null;
  return { source: node.children.map((c) => c.value as string).join(''), asLines: true };
}

/**
 * An object whose keys are all different: JSON.parse keeps a repeated key's last value and this
 * reader its first, so a notebook with one would show a cell other than the one Jupyter runs.
 */
function uniqueKeys(object: Node): boolean {
  const keys = (object.children ?? []).map((p) => p.children?.[0]?.value as string);
  return new Set(keys).size === keys.length;
}

/** A cell object nbformat 4 would write: a known type and a source. */
function cellOf(node: Node): NotebookCell | null {
  if (node.type !== 'object' || !uniqueKeys(node)) return null;
  const typeNode = propertyNode(node, 'cell_type');
  const sourceNode = propertyNode(node, 'source');
  const type = typeNode?.value as CellType;
  if (typeNode === undefined || sourceNode === undefined || !CELL_TYPES.includes(type)) return null;
  const source = sourceOf(sourceNode);
  if (source === null) return null;
  const outputsNode = propertyNode(node, 'outputs');
  const countNode = propertyNode(node, 'execution_count');
  return {
    type,
    source: source.source,
    sourceAsLines: source.asLines,
    node,
    typeNode,
    sourceNode,
    ...(outputsNode ? { outputsNode } : {}),
    ...(countNode ? { countNode } : {}),
  };
}

/** Written by Python's json with `ensure_ascii`: escapes of non-ASCII characters and no raw ones. */
function writesAsciiOnly(text: string): boolean {
  return !/[^\x00-\x7f]/.test(text) && /\\u(?:00[89a-f]|0[1-9a-f]|[1-9a-f])/i.test(text);
}

/**
 * A notebook (nbformat 4 JSON with a `cells` array of known cells), or null for anything else:
 * not JSON, another shape, a cell type this does not know. Those are edited as plain text.
 */
export function readNotebook(text: string): Notebook | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  if (root?.type !== 'object' || !uniqueKeys(root)) return null;
  const cellsNode = propertyNode(root, 'cells');
  if (cellsNode?.type !== 'array' || propertyNode(root, 'nbformat')?.value !== 4) return null;
  const cells: NotebookCell[] = [];
  for (const child of cellsNode.children ?? []) {
    const cell = cellOf(child);
    if (cell === null) return null;
    cells.push(cell);
  }
  const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? null;
  return {
    text,
    cells,
    cellsNode,
    indent,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    asciiOnly: writesAsciiOnly(text),
    hasIds: (cellsNode.children ?? []).some((c) => propertyNode(c, 'id') !== undefined),
  };
}
