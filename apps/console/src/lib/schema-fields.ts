import { z } from 'zod';

/** One field of a request or response body, as /docs lists it. */
export interface SchemaField {
  name: string;
  type: string;
  isRequired: boolean;
  maxLength: number | null;
}

interface JsonSchemaNode {
  type?: string | string[];
  format?: string;
  const?: unknown;
  enum?: unknown[];
  maxLength?: number;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
}

/** Longer enums are the closed list of codes, tabled on their own. */
const LONG_ENUM = 4;

function describeType(node: JsonSchemaNode): { type: string; maxLength: number | null } {
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) {
    const parts = alternatives.map(describeType);
    return {
      type: parts.map((part) => part.type).join(' or '),
      maxLength: parts.find((part) => part.maxLength !== null)?.maxLength ?? null,
    };
  }
  if (node.const !== undefined) return { type: JSON.stringify(node.const), maxLength: null };
  if (node.enum) {
    return {
      type:
        node.enum.length > LONG_ENUM
          ? 'code'
          : node.enum.map((value) => JSON.stringify(value)).join(' | '),
      maxLength: null,
    };
  }
  const base = Array.isArray(node.type) ? node.type.join(' or ') : (node.type ?? 'any');
  return {
    type: node.format ? `${base} (${node.format})` : base,
    maxLength: node.maxLength ?? null,
  };
}

/**
 * The fields of a body schema from packages/contracts, read from its JSON Schema so /docs
 * never retypes them. A union of objects (session/track's actions) gives one list per variant.
 * `input` describes what a client sends (before defaults and trimming), `output` what it gets.
 */
export function describeSchemaFields(schema: z.ZodType, io: 'input' | 'output'): SchemaField[][] {
  const root = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchemaNode;
  const objects = root.oneOf ?? root.anyOf ?? [root];
  return objects.map((object) => {
    const required = new Set(object.required ?? []);
    return Object.entries(object.properties ?? {}).map(([name, property]) => ({
      name,
      isRequired: required.has(name),
      ...describeType(property),
    }));
  });
}
