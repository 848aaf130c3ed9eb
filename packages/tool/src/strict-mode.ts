/** Keywords OpenAI's strict mode (structured outputs) does not accept anywhere in a schema. */
const UNSUPPORTED = [
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'minLength',
  'maxLength',
  'patternProperties',
  'dependentRequired',
  'unevaluatedProperties',
];

/**
 * For a host that builds its own tool schema (e.g. one of ours extended): what makes a JSON Schema
 * invalid in OpenAI strict mode, as `path: problem` lines: an object not
 * closed or with an optional property, an unsupported keyword, a root that is not an object.
 */
export function strictModeProblems(schema: unknown): string[] {
  const problems: string[] = [];
  const root = schema as Record<string, unknown>;
  if (root.type !== 'object') problems.push('$: the root is not an object');
  if ('anyOf' in root) problems.push('$: anyOf at the root');
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) visit(child, `${at}[${i}]`);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    for (const keyword of UNSUPPORTED) if (keyword in object) problems.push(`${at}: ${keyword}`);
    if (object.type === 'object' || 'properties' in object) {
      if (object.additionalProperties !== false) problems.push(`${at}: additionalProperties is not false`);
      const keys = Object.keys((object.properties ?? {}) as object).sort();
      const required = [...((object.required ?? []) as string[])].sort();
      if (JSON.stringify(keys) !== JSON.stringify(required)) {
        problems.push(
          `${at}: required ${JSON.stringify(required)} is not every property ${JSON.stringify(keys)}`,
        );
      }
    }
    for (const [key, child] of Object.entries(object)) {
      if (key === 'properties') {
        for (const [name, property] of Object.entries(child as object)) visit(property, `${at}.${name}`);
      } else visit(child, `${at}/${key}`);
    }
  };
  visit(schema, '$');
  return problems;
}
