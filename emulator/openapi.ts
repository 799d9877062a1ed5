/**
 * The service API's OpenAPI 3.1 document, as API Platform serves it beside the Hydra documentation: at
 * `/{env}/v1/docs.json` (API Platform's path for the OpenAPI format; `docs.jsonld` stays the Hydra one). Records
 * come from the core's zod models (core/validation/records.ts), request bodies from the core's input schemas, so
 * the relay's document and this one describe the same records. `openapi.test.ts` checks that every path and method
 * here is one the emulator routes, and the reverse.
 */
import { componentSchemas, toOpenApi30, type OpenApiVersion } from '../core/validation/openapi.ts';
import { recordComponents } from '../core/validation/records.ts';
import { MAX_PAGE_SIZE, registerUserSchema, userPatchSchema } from '../core/validation/schemas.ts';
import { z } from '../core/validation/zod.ts';
import type { EnvName } from './types.ts';
import { SERVICE_OPERATIONS, type ServiceOperation } from './openapi-operations.ts';

type Json = Record<string, unknown>;

const outputs: Record<string, z.ZodType> = {
  ...recordComponents,
  HydraError: z.looseObject({
    '@type': z.string().meta({ examples: ['hydra:Error'] }),
    'hydra:description': z.string().optional(),
    detail: z.string().optional(),
    status: z.int().optional(),
  }).meta({ description: 'An error of the API application (request semantics, resource state).' }),
  ValidationFailed: z.looseObject({
    error: z.literal('validation_failed'),
    violations: z.array(z.object({ propertyPath: z.string(), message: z.string() })),
  }).meta({ description: 'Field-level validation failures.' }),
  GatewayMessage: z.looseObject({ message: z.string().meta({ examples: ['Unauthorized', 'Too Many Requests', 'Limit Exceeded'] }) })
    .meta({ description: "The API gateway's terse answer (401, 429)." }),
};
const inputs: Record<string, z.ZodType> = { RegisterUser: registerUserSchema, UserPatch: userPatchSchema };

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const ld = (schema: Json): Json => ({ 'application/ld+json': { schema } });

const ERRORS: Record<string, Json> = {
  400: { description: 'Invalid input: a missing or malformed X-User-ID, a bad page or filter, or field violations.', content: { ...ld(ref('HydraError')), 'application/json': { schema: ref('ValidationFailed') } } },
  401: { description: 'The access token is missing, invalid, expired or of the other environment.', content: { 'application/json': { schema: ref('GatewayMessage') } } },
  // No media type: the gateway's 403 has no body and no Content-Type at all (spec, "Authentication"), and a listed
  // one would make every tool that checks content types flag it.
  403: { description: 'The API key is missing, wrong or disabled (an empty body, from the gateway), or a hydra:Error (application/ld+json): the token lacks the scope, or the learner is inactive.' },
  404: { description: "No such record, or not this partner's (never 403).", content: ld(ref('HydraError')) },
  429: { description: 'The usage plan: `Too Many Requests` (rate) or `Limit Exceeded` (daily quota). Retry with backoff.', content: { 'application/json': { schema: ref('GatewayMessage') } } },
  500: { description: 'A failure on the service side. Retry with backoff.', content: ld(ref('HydraError')) },
};

function parameter(name: string, where: 'path' | 'query' | 'header', schema: Json, required: boolean, description: string, example?: unknown): Json {
  return { name, in: where, required, description, schema, ...(example !== undefined ? { example } : {}) };
}

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const listParams = (): Json[] => [
  parameter('page', 'query', { type: 'integer', minimum: 1 }, false, 'The page, 1-based.', 1),
  parameter('itemsPerPage', 'query', { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE }, false, `Items per page (default 30, at most ${MAX_PAGE_SIZE}).`, 30),
  ...['after', 'strictly_after', 'before', 'strictly_before'].map((f) =>
    parameter(`updatedAt[${f}]`, 'query', { type: 'string', format: 'date-time' }, false, `Delta sync: records updated ${f.replace('_', ' ')} this instant.`)),
];

function operation(op: ServiceOperation): Json {
  const parameters: Json[] = [];
  for (const name of op.path.match(/\{(\w+)\}/g) ?? []) {
    const bare = name.slice(1, -1);
    parameters.push(bare === 'uuid'
      ? parameter('uuid', 'path', { type: 'string', pattern: UUID }, true, 'The learner UUID.', '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f')
      : parameter(bare, 'path', { type: 'integer', minimum: 1 }, true, 'The record id.', 1));
  }
  if (op.success.kind === 'collection') parameters.push(...listParams());
  if (op.userScoped) parameters.push(parameter('X-User-ID', 'header', { type: 'string', pattern: UUID }, true, 'The learner to act for (`uuid` from registration).'));
  const responses: Json = {};
  const s = op.success;
  responses[String(s.status)] = s.kind === 'empty' ? { description: 'Done (no body).' }
    : s.kind === 'pdf' ? { description: 'The PDF.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } }
    : s.kind === 'collection' ? { description: 'A page of the collection.', content: ld(ref(`${s.schema}Collection`)) }
    : { description: 'The record.', content: s.schema === 'Health' ? { 'application/json': { schema: ref('Health') } } : ld(ref(s.schema!)) };
  for (const status of op.errors) responses[String(status)] = status === 409
    ? { description: 'The module is SCORM (SCORM reports its own completion).', content: ld(ref('HydraError')) }
    : status === 415 ? { description: 'Wrong Content-Type for the body.', content: ld(ref('HydraError')) }
    : ERRORS[String(status)];
  const out: Json = {
    operationId: op.operationId, summary: op.summary, tags: [op.tag], parameters, responses,
    security: op.path === '/ping' ? [{ apiKey: [] }] : [{ apiKey: [], accessToken: [op.scope] }],
  };
  if (op.body) {
    out['requestBody'] = { required: true, content: { [op.body.type]: { schema: ref(op.body.schema), example: op.body.example } } };
  }
  return out;
}

/**
 * @param origin The emulator's origin as the caller reached it (for the server and token URLs).
 * @param env The environment.
 * @param version `3.1` (default) or `3.0`.
 * @returns The document.
 */
export function serviceOpenApiDocument(origin: string, env: EnvName, version: OpenApiVersion = '3.1'): Json {
  const paths: Record<string, Json> = {};
  for (const op of SERVICE_OPERATIONS) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operation(op);
  }
  const doc: Json = {
    openapi: version === '3.1' ? '3.1.0' : '3.0.3',
    info: {
      title: `Partner Learning Service (emulator, ${env})`, version: '1.0.0',
      description: 'The partner API: every call needs `x-api-key` and an OAuth2 client-credentials access token (`/ping`: the key only). Collections are Hydra (JSON-LD); errors come from the API application (hydra:Error, validation_failed) or the gateway (`message`, or an empty 403).',
      license: version === '3.1' ? { name: 'MIT', identifier: 'MIT' } : { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: `${origin}/${env}/v1`, description: env }],
    tags: ['Service', 'Learners', 'Catalog', 'Learning'].map((name) => ({ name, description: `${name} operations.` })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "The partner's API key for this environment (rate limits and quotas)." },
        accessToken: {
          type: 'oauth2', description: 'Client credentials at the token endpoint (Basic client ID and secret); send `Authorization: Bearer <access_token>`.',
          flows: { clientCredentials: { tokenUrl: `${origin}/${env}/oauth2/token`, scopes: { 'partner-api/read': 'All read operations.', 'partner-api/write': 'Registration, profile changes, deletion, completions.' } } },
        },
      },
      schemas: { ...componentSchemas(outputs, 'output', version), ...componentSchemas(inputs, 'input', version) },
    },
  };
  return version === '3.0' ? (toOpenApi30(doc) as Json) : doc;
}
