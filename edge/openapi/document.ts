/**
 * The relay's OpenAPI 3.1 document, built from the route table (edge/routes.ts) so that paths, methods, parameters
 * and who may call cannot disagree with what the relay serves; the words come from operations.ts.
 */
import { MAX_PAGE_SIZE } from '../../core/protocol.ts';
import { routes } from '../routes.ts';
import type { ParamKind, Route, RouteOperation } from '../route-types.ts';
import { operationDocs } from './operations.ts';

type Json = Record<string, unknown>;

/**
 * Known problem `code` values (relay contract, "Errors"). The set is open (the core's codes pass through), so the
 * schema lists them as examples, not an enum a new code would break.
 */
export const PROBLEM_CODES = [
  'validation_failed', 'not_found', 'inactive_learner', 'missing_scope', 'conflict', 'quota_exceeded', 'throttled',
  'unauthenticated', 'invalid_token', 'forbidden', 'rate_limited', 'relay_misconfigured', 'upstream_unavailable',
  'upstream_auth_failed', 'upstream_invalid',
] as const;

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** `/v1/users/:uuid` → `/v1/users/{uuid}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

function pathParam(name: string, kind: ParamKind): Json {
  const schema = kind === 'id' ? { type: 'string', pattern: '^[1-9][0-9]*$' } : { type: 'string', pattern: UUID };
  return { name, in: 'path', required: true, schema, example: kind === 'id' ? '1' : '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f' };
}

const listParams: Json[] = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 }, example: 1 },
  { name: 'itemsPerPage', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE }, example: 30 },
  ...['after', 'strictly_after', 'before', 'strictly_before'].map((f) => ({
    name: `updatedAt[${f}]`, in: 'query', schema: { type: 'string', format: 'date-time' },
  })),
];

const userIdHeader: Json = {
  name: 'X-User-ID', in: 'header', required: false,
  description: 'The learner to act for, when called with the relay key (a learner token names its learner itself).',
  schema: { type: 'string', pattern: UUID },
};

function problem(description: string): Json {
  return { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
}

function success(doc: (typeof operationDocs)[string]['success']): Json {
  const ref = doc.schema ? { $ref: `#/components/schemas/${doc.schema}` } : { type: 'object', additionalProperties: true };
  switch (doc.kind) {
    case 'empty': return { description: 'Done.' };
    case 'pdf': return { description: 'The PDF.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } };
    case 'collection': return { description: 'A Hydra collection page.', content: { 'application/ld+json': { schema: hydra(ref) } } };
    // Records come as JSON-LD (the service's own media type); the relay's own answers as plain JSON.
    case 'json': return { description: 'The record.', content: { 'application/ld+json': { schema: ref }, 'application/json': { schema: ref } } };
  }
}

function hydra(member: Json): Json {
  return {
    type: 'object', required: ['hydra:member'],
    properties: { 'hydra:member': { type: 'array', items: member }, 'hydra:totalItems': { type: 'integer', minimum: 0 }, 'hydra:view': { type: 'object' } },
  };
}

function operation(route: Route, method: string, op: RouteOperation): Json {
  const key = `${method} ${openApiPath(route.path)}`;
  const doc = operationDocs[key];
  if (!doc) throw new Error(`No OpenAPI description for ${key}: add it to edge/openapi/operations.ts`);
  const parameters: Json[] = Object.entries(route.params ?? {}).map(([name, kind]) => pathParam(name, kind));
  if (doc.success.kind === 'collection') parameters.push(...listParams);
  if (op.userScoped && op.access !== 'learner') parameters.push(userIdHeader);
  const security = op.access === 'backend' ? [{ relayKey: [] }] : op.access === 'learner' ? [{ learnerToken: [] }] : [{ relayKey: [] }, { learnerToken: [] }];
  const out: Json = {
    operationId: doc.operationId, summary: doc.summary, security, parameters,
    responses: {
      [String(doc.success.status)]: success(doc.success),
      400: problem('`validation_failed`: the request is malformed; `violations` says what to fix.'),
      401: problem('`unauthenticated` or `invalid_token`.'),
      403: problem('`forbidden`, `inactive_learner` or `missing_scope`.'),
      404: problem('`not_found`.'),
      409: problem('`conflict`.'),
      429: problem('`throttled`, `quota_exceeded` or `rate_limited`.'),
      500: problem('`relay_misconfigured`.'),
      502: problem('`upstream_invalid` or `upstream_auth_failed`.'),
      503: problem('`upstream_unavailable`.'),
    },
  };
  if (op.body) {
    const type = op.body === 'merge-patch' ? 'application/merge-patch+json' : 'application/json';
    out['requestBody'] = { required: true, content: { [type]: { schema: { type: 'object' } } } };
  }
  return out;
}

const record = (extra: Json = {}): Json => ({
  type: 'object', additionalProperties: true,
  properties: { '@id': { type: 'string' }, '@type': { type: 'string' }, id: { type: 'integer' }, ...extra },
});

/** The whole document (OpenAPI 3.1). */
export function relayOpenApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const item: Json = {};
    for (const [method, op] of Object.entries(route.methods)) item[method.toLowerCase()] = operation(route, method, op);
    paths[openApiPath(route.path)] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Partner Learning relay', version: '1.0.0', description: 'The relay contract: a closed set of routes in front of the Partner Learning service.', license: { name: 'MIT', identifier: 'MIT' } },
    // Relative: the relay this document was fetched from.
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        relayKey: { type: 'apiKey', in: 'header', name: 'X-Relay-Key', description: "The partner backend's relay key (one of RELAY_KEYS)." },
        learnerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A learner token from POST /v1/learner-tokens.' },
      },
      schemas: {
        Problem: {
          type: 'object', required: ['status', 'code'],
          properties: {
            type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' },
            code: { type: 'string', examples: [...PROBLEM_CODES] },
            violations: { type: 'array', items: { type: 'object', properties: { propertyPath: { type: 'string' }, message: { type: 'string' } } } },
          },
        },
        User: record({ uuid: { type: 'string', pattern: UUID }, email: { type: 'string', format: 'email' } }),
        Organization: record(), Category: record(), Course: record(), Module: record(), CourseProgress: record(), Transcript: record(),
        ModuleContent: { type: 'object', additionalProperties: true },
        LearnerToken: {
          type: 'object', required: ['token', 'userId', 'expiresAt'],
          properties: { token: { type: 'string' }, userId: { type: 'string', pattern: UUID }, expiresAt: { type: 'string', format: 'date-time' } },
        },
      },
    },
  };
}
