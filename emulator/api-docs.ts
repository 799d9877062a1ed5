import type { Hono, MiddlewareHandler } from 'hono';
import { ERROR_FIELDS, RESOURCES, entrypointKey } from './api-model.ts';
import type { FieldModel, OperationModel, ResourceModel } from './api-model.ts';
import type { AppEnv } from './context.ts';
import { json, jsonLd, notFound } from './hydra.ts';
import { serviceOpenApiDocument } from './openapi.ts';
import { isEnvName } from './types.ts';
import type { EnvName } from './types.ts';

/**
 * Hydra API documentation as API Platform serves it: `/{env}/v1/docs.jsonld`, `@context` documents at
 * `/{env}/v1/contexts/{Resource}`, the entrypoint `GET /{env}/v1`, and a `Link` header naming the documentation on
 * every API response. Documentation and contexts need no credentials, so a JSON-LD processor can load a context
 * without the partner's keys; the entrypoint is an API resource behind the gateway like any other.
 */

const HYDRA = 'http://www.w3.org/ns/hydra/core#';
const base = (env: EnvName) => `/${env}/v1`;
const docsUrl = (origin: string, env: EnvName) => `${origin}${base(env)}/docs.jsonld`;

/** @returns the `@context` IRI of a resource's documents, e.g. `/sandbox/v1/contexts/Course`. */
export function contextIri(env: EnvName, type: string): string {
  return `${base(env)}/contexts/${type}`;
}

/** @returns the `Link` header value naming the API documentation. */
export function docsLink(origin: string, env: EnvName): string {
  return `<${docsUrl(origin, env)}>; rel="${HYDRA}apiDocumentation"`;
}

/**
 * Routes for the documentation and the contexts (register before the gateway: they need no credentials).
 * @param app the app to register on.
 */
export function registerApiDocs(app: Hono<AppEnv>): void {
  app.get('/:env/v1/docs.jsonld', (c) => {
    const env = c.req.param('env');
    if (!isEnvName(env)) return notFound();
    const origin = new URL(c.req.url).origin;
    return withLink(jsonLd(documentation(origin, env)), origin, env);
  });
  app.get('/:env/v1/contexts/:type', (c) => {
    const env = c.req.param('env');
    if (!isEnvName(env)) return notFound();
    const origin = new URL(c.req.url).origin;
    const context = contextDocument(origin, env, c.req.param('type'));
    return withLink(context ? jsonLd({ '@context': context }) : notFound('No context of that name.'), origin, env);
  });
  // The OpenAPI rendering, where API Platform serves it; `?spec_version=3.0.0` gives 3.0 as API Platform does.
  app.get('/:env/v1/docs.json', (c) => {
    const env = c.req.param('env');
    if (!isEnvName(env)) return notFound();
    const version = c.req.query('spec_version')?.startsWith('3.0') ? '3.0' : '3.1';
    return withLink(json(serviceOpenApiDocument(new URL(c.req.url).origin, env, version)), new URL(c.req.url).origin, env);
  });
  app.options('/:env/v1/docs.json', () => new Response(null, { status: 204, headers: { allow: 'GET, HEAD, OPTIONS' } }));
  // Public like the documents themselves: without this, OPTIONS would fall through to the gateway and ask for keys.
  app.options('/:env/v1/docs.jsonld', () => new Response(null, { status: 204, headers: { allow: 'GET, HEAD, OPTIONS' } }));
  app.options('/:env/v1/contexts/:type', () => new Response(null, { status: 204, headers: { allow: 'GET, HEAD, OPTIONS' } }));
}

/**
 * The entrypoint, `GET /{env}/v1`: one IRI per resource, as API Platform lists its resources.
 * @returns the entrypoint body.
 */
export function entrypoint(env: EnvName): object {
  const out: Record<string, string> = { '@context': contextIri(env, 'Entrypoint'), '@id': base(env), '@type': 'Entrypoint' };
  for (const r of RESOURCES) out[entrypointKey(r)] = `${base(env)}${r.path}`;
  return out;
}

/**
 * Middleware behind the gateway on `/{env}/v1/*`: adds the documentation `Link` to every application response and
 * points an error's `@context` at this environment's contexts (the error helpers do not know the environment).
 * @returns the middleware.
 */
export function apiPlatformResponses(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const env = c.req.param('env');
    if (!isEnvName(env)) return;
    const res = await asApiPlatform(c.res, new URL(c.req.url).origin, env);
    // Clear first: Hono's setter would otherwise merge the old response's headers into the new one.
    c.res = undefined;
    c.res = res;
  };
}

/**
 * Gives an application response what API Platform sends: the documentation `Link`, and for a hydra:Error an
 * `@context` under `/{env}/v1/contexts`.
 * @returns the response to send.
 */
export async function asApiPlatform(res: Response, origin: string, env: EnvName): Promise<Response> {
  let out = res;
  if (res.status >= 400 && (res.headers.get('content-type') ?? '').startsWith('application/ld+json')) {
    let text = await res.text();
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      if (body['@context'] === '/contexts/Error') text = JSON.stringify({ ...body, '@context': contextIri(env, 'Error') });
    } catch {
      // Not JSON after all: sent on unchanged.
    }
    out = new Response(text, { status: res.status, headers: res.headers });
  }
  return withLink(out, origin, env);
}

function withLink(res: Response, origin: string, env: EnvName): Response {
  const out = new Response(res.body, res);
  out.headers.set('link', docsLink(origin, env));
  return out;
}

function vocab(origin: string, env: EnvName): Record<string, string> {
  return { '@vocab': `${docsUrl(origin, env)}#`, hydra: HYDRA };
}

/** @returns the context of a type, or null when the API has no such type. */
function contextDocument(origin: string, env: EnvName, type: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = vocab(origin, env);
  if (type === 'Entrypoint') {
    for (const r of RESOURCES) out[entrypointKey(r)] = { '@id': `Entrypoint/${entrypointKey(r)}`, '@type': '@id' };
    return out;
  }
  if (type === 'Error') {
    for (const name of ERROR_FIELDS) out[name] = `Error/${name}`;
    return out;
  }
  const resource = RESOURCES.find((r) => r.name === type);
  if (!resource) return null;
  for (const field of resource.fields) out[field.name] = field.link ? { '@id': `${type}/${field.name}`, '@type': '@id' } : `${type}/${field.name}`;
  return out;
}

const range = (field: FieldModel) => (field.range.startsWith('#') ? field.range : `xmls:${field.range}`);

function operation(op: OperationModel): object {
  const out: Record<string, unknown> = {
    '@type': ['hydra:Operation', `schema:${op.action}`],
    'hydra:method': op.method,
    'hydra:title': op.title,
    'rdfs:label': op.title,
    returns: op.returns,
  };
  if (op.expects) out.expects = op.expects;
  return out;
}

function supportedClass(r: ResourceModel): object {
  return {
    '@id': `#${r.name}`,
    '@type': 'hydra:Class',
    'rdfs:label': r.name,
    'hydra:title': r.name,
    'hydra:description': r.description,
    'hydra:supportedProperty': r.fields.map((field) => ({
      '@type': 'hydra:SupportedProperty',
      'hydra:property': {
        '@id': `#${r.name}/${field.name}`,
        '@type': field.link ? 'hydra:Link' : 'rdf:Property',
        'rdfs:label': field.name,
        domain: `#${r.name}`,
        range: range(field),
      },
      'hydra:title': field.name,
      'hydra:required': field.required === true,
      'hydra:readable': true,
      'hydra:writeable': field.writable === true,
      'hydra:description': field.description,
    })),
    'hydra:supportedOperation': r.itemOperations.map(operation),
  };
}

function entrypointClass(): object {
  return {
    '@id': '#Entrypoint',
    '@type': 'hydra:Class',
    'hydra:title': 'The API entrypoint',
    'hydra:supportedProperty': RESOURCES.map((r) => ({
      '@type': 'hydra:SupportedProperty',
      'hydra:property': {
        '@id': `#Entrypoint/${entrypointKey(r)}`,
        '@type': 'hydra:Link',
        domain: '#Entrypoint',
        'rdfs:label': `The collection of ${r.name} resources`,
        'rdfs:range': [{ '@id': 'hydra:Collection' }, { 'owl:equivalentClass': { 'owl:onProperty': { '@id': 'hydra:member' }, 'owl:allValuesFrom': { '@id': `#${r.name}` } } }],
        'hydra:supportedOperation': r.collectionOperations.map(operation),
      },
      'hydra:title': `The collection of ${r.name} resources`,
      'hydra:readable': true,
      'hydra:writeable': false,
    })),
    'hydra:supportedOperation': { '@type': 'hydra:Operation', 'hydra:method': 'GET', 'rdfs:label': 'The API entrypoint.', returns: '#Entrypoint' },
  };
}

/** @returns `docs.jsonld`: every resource class with its properties and operations, and the entrypoint class. */
function documentation(origin: string, env: EnvName): object {
  return {
    '@context': {
      ...vocab(origin, env),
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      xmls: 'http://www.w3.org/2001/XMLSchema#',
      owl: 'http://www.w3.org/2002/07/owl#',
      schema: 'https://schema.org/',
      domain: { '@id': 'rdfs:domain', '@type': '@id' },
      range: { '@id': 'rdfs:range', '@type': '@id' },
      subClassOf: { '@id': 'rdfs:subClassOf', '@type': '@id' },
      expects: { '@id': 'hydra:expects', '@type': '@id' },
      returns: { '@id': 'hydra:returns', '@type': '@id' },
    },
    '@id': `${base(env)}/docs.jsonld`,
    'hydra:title': `Partner Learning Service (${env})`,
    'hydra:description': 'Partner-facing learning-management API: learners, catalog, content URLs, completion, progress and transcripts.',
    'hydra:entrypoint': base(env),
    'hydra:supportedClass': [...RESOURCES.map(supportedClass), entrypointClass()],
  };
}
