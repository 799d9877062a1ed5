/**
 * The relay's OpenAPI document, built from the route table (edge/routes.ts) and the zod schemas the relay and the
 * core validate with (edge/inputs.ts, core/validation/), so paths, methods, parameters, bodies and who may call
 * cannot disagree with what the relay serves; the words come from operations.ts. 3.1 is served at
 * `/v1/openapi.json`; a 3.0 rendering of the same document, for tools that read only 3.0, at `/v1/openapi-3.0.json`.
 *
 * Why generated here rather than with `@hono/zod-openapi` or `hono-openapi`: most of what the relay checks is checked
 * by the core (registration, patches, page sizes, dates) with the core's own zod schemas, and the route table is
 * what the relay serves; rewriting routes as `createRoute` definitions would restate those checks in a second place.
 * Rendering the very schema objects the relay and the core validate with, and walking the route table the relay
 * routes by, gives the same guarantee (the document cannot say one thing while the code checks another) with no
 * second definition.
 */
import { componentSchemas, inclusiveIntegerBounds, toOpenApi30, type OpenApiVersion } from '../../core/validation/openapi.ts';
import { z } from '../../core/validation/zod.ts';
import { listQuerySchemas, pathParamSchemas } from '../inputs.ts';
import { routes } from '../routes.ts';
import type { Route, RouteOperation } from '../route-types.ts';
import { operationDocs, type OperationDoc } from './operations.ts';
import { outputSchemas, PROBLEM_CODES } from './schemas.ts';

export { PROBLEM_CODES };
type Json = Record<string, unknown>;

/** `/v1/users/:uuid` → `/v1/users/{uuid}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

/** One schema rendered inline (parameters), for the document's version. */
function inline(schema: z.ZodType, version: OpenApiVersion): Json {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io: 'input', target: version === '3.1' ? 'draft-2020-12' : 'openapi-3.0' }) as Json;
  const plain = inclusiveIntegerBounds(rest) as Json;
  return version === '3.0' ? (toOpenApi30(plain) as Json) : plain;
}

function parameter(name: string, where: 'path' | 'query' | 'header', schema: z.ZodType, required: boolean, version: OpenApiVersion): Json {
  const rendered = inline(schema, version);
  const { description, examples: _e, example, ...plain } = rendered as Json & { examples?: unknown[] };
  const first = (rendered['examples'] as unknown[] | undefined)?.[0] ?? example;
  return { name, in: where, required, ...(description ? { description } : {}), schema: plain, ...(first !== undefined ? { example: first } : {}) };
}

const TAGS: Record<OperationDoc['tag'], string> = {
  Service: 'Whether the relay reaches the service.',
  Learners: "Registering and managing learners (partner backends only).",
  Catalog: 'Organizations, categories, courses and modules.',
  Learning: "A learner's content links, completions, progress, transcripts and PDFs.",
  'Learner tokens': 'Tokens that let a browser act for one learner.',
};

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function problem(description: string): Json {
  return { description, content: { 'application/problem+json': { schema: ref('Problem') } } };
}

function success(doc: OperationDoc['success']): Json {
  switch (doc.kind) {
    case 'empty': return { description: 'Done (no body).' };
    case 'pdf': return {
      description: 'The PDF, streamed.',
      headers: { 'Content-Disposition': { description: 'The file name the service gave.', schema: { type: 'string' } } },
      content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    };
    case 'collection': return { description: 'A page of the collection; `hydra:view.hydra:next` leads to the next one, through the relay.', content: { 'application/ld+json': { schema: ref(`${doc.schema!}Collection`) } } };
    // Records come as JSON-LD (the service's own media type); the relay's own answers as plain JSON.
    case 'json': return doc.schema === 'LearnerToken'
      ? { description: 'The token.', content: { 'application/json': { schema: ref(doc.schema) } } }
      : { description: 'The record.', content: { 'application/ld+json': { schema: ref(doc.schema!) }, 'application/json': { schema: ref(doc.schema!) } } };
  }
}

const ERRORS: Record<string, string> = {
  400: '`validation_failed`: the request is malformed; `violations` says what to fix.',
  401: '`unauthenticated` (no relay key or learner token) or `invalid_token` (expired or forged): see `WWW-Authenticate`.',
  403: '`forbidden` (the wrong caller for this route), `inactive_learner` or `missing_scope`.',
  404: '`not_found`: no such record, or not this partner\'s.',
  409: '`conflict`: e.g. completing a SCORM module (SCORM reports its own completion).',
  429: '`throttled` or `quota_exceeded` (the service, after retries) or `rate_limited` (this learner\'s relay budget); see `Retry-After`.',
  500: '`relay_misconfigured` or `internal_error`.',
  502: '`upstream_auth_failed` (the relay\'s own credentials were refused) or `upstream_invalid` (an unusable answer).',
  503: '`upstream_unavailable`; see `Retry-After`.',
  504: '`upstream_timeout`: the service did not answer within the relay\'s deadline; see `Retry-After`.',
};

function operation(route: Route, method: string, op: RouteOperation, version: OpenApiVersion): Json {
  const key = `${method} ${openApiPath(route.path)}`;
  const doc = operationDocs[key];
  if (!doc) throw new Error(`No OpenAPI description for ${key}: add it to edge/openapi/operations.ts`);
  const parameters: Json[] = Object.entries(route.params ?? {}).map(([name, kind]) => parameter(name, 'path', pathParamSchemas[kind], true, version));
  if (doc.success.kind === 'collection') {
    for (const [name, schema] of Object.entries(listQuerySchemas)) parameters.push(parameter(name, 'query', schema, false, version));
  }
  if (op.userScoped && op.access !== 'learner') {
    const header = parameter('X-User-ID', 'header', pathParamSchemas.uuid, false, version);
    header['description'] = 'The learner to act for, required when called with the relay key (a learner token names its learner itself).';
    parameters.push(header);
  }
  const security = op.access === 'backend' ? [{ relayKey: [] }] : op.access === 'learner' ? [{ learnerToken: [] }] : [{ relayKey: [] }, { learnerToken: [] }];
  const responses: Json = { [String(doc.success.status)]: success(doc.success) };
  for (const [status, text] of Object.entries(ERRORS)) responses[status] = problem(text);
  const out: Json = { operationId: doc.operationId, summary: doc.summary, description: doc.description, tags: [doc.tag], security, parameters, responses };
  if (op.body) {
    const type = op.body === 'merge-patch' ? 'application/merge-patch+json' : 'application/json';
    const schema = op.bodySchema ? ref(doc.bodyName ?? `${doc.operationId}Body`) : { type: 'object' };
    out['requestBody'] = { required: true, content: { [type]: { schema, ...(doc.example ? { example: doc.example } : {}) } } };
    responses['413'] = problem('`payload_too_large`: the body is over 64 KiB.');
    responses['415'] = problem(`\`unsupported_media_type\`: send \`Content-Type: ${type}\`.`);
  }
  return out;
}

/** Request bodies by component name, from the route table. */
function bodySchemas(): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const route of routes) {
    for (const [method, op] of Object.entries(route.methods)) {
      const doc = operationDocs[`${method} ${openApiPath(route.path)}`];
      if (op.bodySchema && doc) out[doc.bodyName ?? `${doc.operationId}Body`] = op.bodySchema;
    }
  }
  return out;
}

/**
 * @param version `3.1` (default, what `/v1/openapi.json` serves) or `3.0`.
 * @returns The whole document.
 */
export function relayOpenApiDocument(version: OpenApiVersion = '3.1'): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const item: Json = {};
    for (const [method, op] of Object.entries(route.methods)) item[method.toLowerCase()] = operation(route, method, op, version);
    paths[openApiPath(route.path)] = item;
  }
  const license = version === '3.1' ? { name: 'MIT', identifier: 'MIT' } : { name: 'MIT', url: 'https://opensource.org/licenses/MIT' };
  return {
    openapi: version === '3.1' ? '3.1.0' : '3.0.3',
    info: {
      title: 'Partner Learning relay', version: '1.0.0', license,
      description: 'The relay contract: a closed set of routes in front of the Partner Learning service. Partner backends call it with a relay key; browsers with a learner token the backend minted. The relay holds the service credentials; nothing secret ever comes back.',
    },
    // Relative: the relay this document was fetched from.
    servers: [{ url: '/' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        relayKey: { type: 'apiKey', in: 'header', name: 'X-Relay-Key', description: "The partner backend's relay key (one of RELAY_KEYS)." },
        learnerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A learner token from POST /v1/learner-tokens.' },
      },
      schemas: { ...componentSchemas(outputSchemas, 'output', version), ...componentSchemas(bodySchemas(), 'input', version) },
    },
  };
}
