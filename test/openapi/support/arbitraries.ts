/**
 * fast-check arbitraries from an OpenAPI document's schemas (JSON Schema 2020-12, the subset our documents use):
 * values a schema accepts, and values it refuses, for the property-based run (test/openapi/fuzz.test.ts).
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown>;
type Doc = { components?: { schemas?: Record<string, Schema> } };

/** Resolves a local `$ref` (`#/components/schemas/X`). */
export function resolve(doc: Doc, schema: Schema): Schema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = doc.components?.schemas?.[name];
  if (!target) throw new Error(`unresolvable $ref ${ref}`);
  return resolve(doc, target);
}

const dateTime = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());

/** Values that exist in the service, mixed into what is generated so that some requests find records. */
export interface Known { uuids: string[] }

const UUID_LIKE = /^\^\[0-9a-fA-F\]\{8\}/;

/**
 * @param doc The document (for `$ref`s).
 * @param schema A schema of it.
 * @param known Existing learners (for UUID-shaped strings); small whole numbers are favoured, as ids start at 1.
 * @returns Values the schema accepts.
 */
export function valid(doc: Doc, schema: Schema, known: Known = { uuids: [] }): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  const inner = (next: Schema) => valid(doc, next, known);
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]));
  if ('const' in s) return fc.constant(s['const']);
  const alternatives = (s['anyOf'] ?? s['oneOf']) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map(inner));
  const type = s['type'];
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => inner({ ...s, type: t })));
  switch (type) {
    case 'null': return fc.constant(null);
    case 'boolean': return fc.boolean();
    case 'integer': {
      const min = Math.max(Number(s['minimum'] ?? -1e9), -1e9);
      const max = Math.min(Number(s['maximum'] ?? 1e9), 1e9);
      return fc.oneof(fc.integer({ min, max: Math.min(max, Math.max(min, 0) + 3) }), fc.integer({ min, max }));
    }
    case 'number': return fc.double({ min: Number(s['minimum'] ?? -1e9), max: Number(s['maximum'] ?? 1e9), noNaN: true });
    case 'string': {
      if (s['format'] === 'date-time') return dateTime;
      if (typeof s['pattern'] === 'string') {
        const generated = fc.stringMatching(new RegExp(s['pattern'])).filter((v) => v.length <= 200);
        if (UUID_LIKE.test(s['pattern']) && known.uuids.length) return fc.oneof(generated, fc.constantFrom(...known.uuids));
        // Whole numbers written as text (the relay's path ids): favour the small ones, as ids start at 1.
        if (s['pattern'].startsWith('^[1-9][0-9]')) return fc.oneof(generated, fc.constantFrom('1', '2', '3'));
        return generated;
      }
      return fc.string({ minLength: Number(s['minLength'] ?? 0), maxLength: Math.min(Number(s['maxLength'] ?? 40), 40) });
    }
    case 'array': return fc.array(inner((s['items'] as Schema | undefined) ?? {}), { maxLength: 3 });
    case 'object': {
      const properties = (s['properties'] ?? {}) as Record<string, Schema>;
      const required = new Set((s['required'] ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = inner(property);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in properties) });
    }
    default: return fc.jsonValue();
  }
}

/**
 * @param doc The document.
 * @param schema A schema of it.
 * @returns Values the schema refuses (of the wrong type, outside a pattern or bounds, missing a required field).
 */
export function invalid(doc: Doc, schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  const type = s['type'];
  const wrongType = fc.oneof(
    ...(type === 'string' ? [] : [fc.string({ maxLength: 12 })]),
    ...(type === 'integer' || type === 'number' ? [] : [fc.integer()]),
    ...(type === 'object' ? [] : [fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 })]),
    fc.constant(true), fc.constant([]),
  );
  if (type === 'string' && typeof s['pattern'] === 'string') {
    const pattern = new RegExp(s['pattern']);
    return fc.oneof(wrongType, fc.string({ maxLength: 60 }).filter((v) => !pattern.test(v)));
  }
  if (type === 'integer' && typeof s['minimum'] === 'number') return fc.oneof(wrongType, fc.constant(s['minimum'] - 1), fc.constant(1.5));
  if (type === 'object' && Array.isArray(s['required']) && s['required'].length > 0) {
    const required = s['required'] as string[];
    return fc.oneof(wrongType, fc.tuple(valid(doc, s), fc.constantFrom(...required)).map(([value, drop]) => {
      const copy = { ...(value as Record<string, unknown>) };
      delete copy[drop];
      return copy;
    }));
  }
  return wrongType;
}
