// Task pages' derivations as plain functions: a tool's parameters read from its JSON Schema.

type SchemaProps = Record<string, { type?: string; description?: string; enum?: unknown[] }>;

export interface ToolParam {
  name: string;
  /** The allowed values joined with " | " for an enum, else the JSON type ("any" when none). */
  type: string;
  description?: string;
}

export function toolParams(parameters: { properties?: unknown }): ToolParam[] {
  const props = (parameters.properties ?? {}) as SchemaProps;
  return Object.entries(props).map(([name, p]) => ({
    name,
    type: p.enum ? p.enum.map(String).join(' | ') : (p.type ?? 'any'),
    ...(p.description ? { description: p.description } : {}),
  }));
}
