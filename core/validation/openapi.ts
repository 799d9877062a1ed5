/**
 * zod schemas → OpenAPI `components.schemas`, for the relay's and the emulator's documents. One call per direction:
 * request bodies are rendered as zod reads them (`io: 'input'`), answers as they come out (`io: 'output'`).
 * OpenAPI 3.1 takes JSON Schema 2020-12 as is; the 3.0 rendering (for tools that read only 3.0) uses zod's
 * `openapi-3.0` target, with `examples` folded to 3.0's single `example`.
 */
import { z } from 'zod';

export type OpenApiVersion = '3.1' | '3.0';
type Json = Record<string, unknown>;

/**
 * @param schemas Component name → schema; schemas that refer to each other become `$ref`s.
 * @param io Read side (`input`, request bodies) or write side (`output`, answers).
 * @param version The OpenAPI version to render for.
 * @returns `components.schemas` entries.
 */
export function componentSchemas(schemas: Record<string, z.ZodType>, io: 'input' | 'output', version: OpenApiVersion): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, {
    io,
    target: version === '3.1' ? 'draft-2020-12' : 'openapi-3.0',
    uri: (id) => `#/components/schemas/${id}`,
    // Refinements (a patch must change something) cannot be said in JSON Schema; the server still checks them.
    unrepresentable: 'any',
  }).schemas as Record<string, Json>;
  const result: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(out)) {
    const { $schema: _schema, $id: _id, ...rest } = schema;
    const plain = inclusiveIntegerBounds(rest) as Json;
    result[id] = version === '3.0' ? (toOpenApi30(plain) as Json) : plain;
  }
  return result;
}

/**
 * Whole numbers with exclusive bounds (`z.int().positive()` gives `exclusiveMinimum: 0`) said as inclusive ones
 * (`minimum: 1`): the same set, read alike by every tool (Perl's JSON::Validator takes 3.0's boolean
 * `exclusiveMinimum: true` for the number 1).
 * @param value A JSON Schema fragment.
 * @returns The fragment with inclusive integer bounds.
 */
export function inclusiveIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inclusiveIntegerBounds);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) out[key] = inclusiveIntegerBounds(inner);
  if (out['type'] === 'integer') {
    if (typeof out['exclusiveMinimum'] === 'number') {
      out['minimum'] = out['exclusiveMinimum'] + 1;
      delete out['exclusiveMinimum'];
    }
    // 3.0's form (zod's `openapi-3.0` target): a boolean beside the bound.
    if (out['exclusiveMinimum'] === true && typeof out['minimum'] === 'number') {
      out['minimum'] = out['minimum'] + 1;
      delete out['exclusiveMinimum'];
    }
    if (out['exclusiveMaximum'] === true && typeof out['maximum'] === 'number') {
      out['maximum'] = out['maximum'] - 1;
      delete out['exclusiveMaximum'];
    }
    if (typeof out['exclusiveMaximum'] === 'number') {
      out['maximum'] = out['exclusiveMaximum'] - 1;
      delete out['exclusiveMaximum'];
    }
  }
  return out;
}

/**
 * OpenAPI 3.0 has no `examples` array in a schema (it has `example`) and no `const`.
 * @param value A JSON Schema fragment.
 * @returns The fragment as 3.0 reads it.
 */
export function toOpenApi30(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toOpenApi30);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'examples' && Array.isArray(inner)) out['example'] = inner[0];
    else if (key === 'const') out['enum'] = [inner];
    else out[key] = toOpenApi30(inner);
  }
  return out;
}
