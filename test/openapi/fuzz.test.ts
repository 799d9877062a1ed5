/**
 * Issue 18: a property-based run over every operation of the relay (backend key and learner token) and of the
 * emulator, driven by their own OpenAPI documents: fast-check generates requests the document allows and requests
 * it refuses (a parameter outside its pattern, a body of the wrong shape or missing a required field), sends them over
 * sockets, and every answer must have a status the operation documents, no 5xx (the service behind is healthy, so
 * any 5xx is the relay's or the emulator's own), and a body that its documented schema accepts (Ajv, JSON Schema
 * 2020-12). Bounded: FUZZ_RUNS examples per operation (default 12) from a fixed seed (FUZZ_SEED), printed with any
 * failure so it can be replayed.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, resolve, valid, type Schema } from './support/arbitraries.ts';
import { RELAY_KEY, startStack, type Stack } from './support/stack.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261125);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12);

interface Parameter { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema }
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

interface Target {
  name: string;
  doc: Doc;
  /** Prefix of every path (the document's server). */
  base: string;
  /** Headers for a security scheme name. */
  credentials(scheme: string, op: number): Record<string, string>;
  /** Learners whose profile the user routes may change or erase (one per target: the relay's run erases its own). */
  victims: string[];
  /** The learner to name in X-User-ID (when the document asks for it). */
  learner(op: number): string;
}

interface Sent { method: string; path: string; headers: Record<string, string>; body?: string }

let stack: Stack;
let relay: Target;
let service: Target;

beforeAll(async () => {
  stack = await startStack();
  const env = stack.upstream.server.emulator.partners(stack.upstream.server.origin)[0]!.environments.sandbox;
  const client = stack.upstream.client;
  const orgId = (await client.organizations.page()).items[0]!.id;
  // Learners: one per operation index (the relay's per-learner budget is 120 a minute), and one whose profile the
  // user routes may change or erase.
  const learners = await Promise.all(Array.from({ length: 7 }, (_, i) =>
    client.users.register({ email: `fuzz-${i}@example.com`, firstName: 'Fuzz', lastName: String(i), organizationId: orgId })));
  const tokens = await Promise.all(learners.map(async (l) => {
    const res = await fetch(`${stack.relay.origin}/v1/learner-tokens`, { method: 'POST', headers: { 'x-relay-key': RELAY_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ userId: l.uuid }) });
    return ((await res.json()) as { token: string }).token;
  }));
  const pick = <T>(list: T[], op: number) => list[op % 5]!;
  relay = {
    name: 'relay', base: stack.relay.origin,
    doc: (await (await fetch(`${stack.relay.origin}/v1/openapi.json`)).json()) as Doc,
    credentials: (scheme, op): Record<string, string> => (scheme === 'relayKey' ? { 'x-relay-key': RELAY_KEY } : { authorization: `Bearer ${pick(tokens, op)}` }),
    victims: [learners[5]!.uuid],
    learner: (op) => pick(learners, op).uuid,
  };
  const form = new URLSearchParams({ grant_type: 'client_credentials', scope: 'partner-api/read partner-api/write' });
  const basic = btoa(`${env.clients[0]!.clientId}:${env.clients[0]!.clientSecret}`);
  const token = ((await (await fetch(env.tokenUrl, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form })).json()) as { access_token: string }).access_token;
  service = {
    name: 'emulator', base: env.baseUrl,
    doc: (await (await fetch(`${env.baseUrl}/docs.json`)).json()) as Doc,
    credentials: () => ({ 'x-api-key': env.apiKey, authorization: `Bearer ${token}` }),
    victims: [learners[6]!.uuid],
    learner: (op) => pick(learners, op).uuid,
  };
}, 180_000);
afterAll(async () => stack?.stop());

/** The Ajv validator of a document's components, by schema. */
function validators(doc: Doc, id: string): (schema: Schema, value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: id, components: doc.components });
  return (schema, value) => {
    const check = ajv.compile(typeof schema['$ref'] === 'string' ? { $ref: `${id}${schema['$ref']}` } : schema);
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };
}

function requests(target: Target, path: string, method: string, op: Operation, index: number): fc.Arbitrary<Sent> {
  const params = op.parameters ?? [];
  const body = op.requestBody ? Object.entries(op.requestBody.content)[0]! : undefined;
  const schemes = (op.security ?? [{}]).flatMap((s) => Object.keys(s));
  // Which part to break in an invalid request: a parameter (by index) or the body (-1); null: a valid request.
  const broken = fc.option(fc.integer({ min: body ? -1 : 0, max: Math.max(0, params.length - 1) }), { freq: 2 });
  return broken.chain((breakAt) => {
    const parts: Record<string, fc.Arbitrary<unknown>> = {};
    const known = { uuids: target.victims };
    params.forEach((p, i) => {
      const good = p.name === 'X-User-ID' ? fc.constant(target.learner(index)) : valid(target.doc, p.schema, known);
      const value = breakAt === i && params.length > 0 ? invalid(target.doc, p.schema) : good;
      parts[p.name] = p.required || p.in === 'path' || breakAt === i ? value : fc.option(value, { nil: undefined });
    });
    if (body) parts['$body'] = breakAt === -1 ? invalid(target.doc, body[1].schema) : valid(target.doc, body[1].schema, known);
    parts['$scheme'] = fc.constantFrom(...(schemes.length ? schemes : ['']));
    return fc.record(parts).map((values) => {
      let url = path;
      const query = new URLSearchParams();
      const headers: Record<string, string> = { ...target.credentials(String(values['$scheme']), index) };
      for (const p of params) {
        const v = values[p.name];
        if (v === undefined) continue;
        const text = typeof v === 'string' ? v : JSON.stringify(v);
        // `.` and `..` are dot segments: a URL parser removes them, so the request would address another path.
        if (p.in === 'path') url = url.replace(`{${p.name}}`, /^(\.|%2e){1,2}$/i.test(text) ? `x${text}` : encodeURIComponent(text));
        else if (p.in === 'query') query.set(p.name, text);
        else if (/^[\t\x20-\x7e]*$/.test(text)) headers[p.name] = text;
      }
      if (values['$scheme'] === 'learnerToken') delete headers['X-User-ID'];
      const sent: Sent = { method: method.toUpperCase(), path: `${url}${query.size ? `?${query}` : ''}`, headers };
      if (body) {
        headers['content-type'] = body[0];
        sent.body = JSON.stringify(values['$body']);
      }
      return sent;
    });
  });
}

async function check(target: Target, op: Operation, sent: Sent, validate: ReturnType<typeof validators>, seen: Set<number>): Promise<string | undefined> {
  const res = await fetch(`${target.base}${sent.path}`, { method: sent.method, headers: sent.headers, body: sent.body, redirect: 'manual' });
  seen.add(res.status);
  const text = await res.text();
  const documented = op.responses[String(res.status)];
  if (!documented) return `answered an undocumented ${res.status}: ${text.slice(0, 300)}`;
  if (res.status >= 500) return `answered ${res.status} with a healthy service behind: ${text.slice(0, 300)}`;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!documented.content || text === '') return undefined;
  const media = documented.content[type];
  if (!media) return `answered ${res.status} as ${type || 'no type'}, documented: ${Object.keys(documented.content).join(', ')}`;
  if (!/json/.test(type)) return undefined;
  const problem = validate(resolve(target.doc, media.schema) === media.schema ? media.schema : media.schema, JSON.parse(text));
  return problem ? `answered ${res.status} with a body its schema refuses (${problem}): ${text.slice(0, 300)}` : undefined;
}

function operations(doc: Doc): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [path, method, op] as [string, string, Operation]))
    // Erasing users last, so earlier operations still find their learners.
    .sort((a, b) => Number(a[1] === 'delete') - Number(b[1] === 'delete'));
}

describe.each(['relay', 'emulator'])('property-based requests against the %s, from its own document', (name) => {
  it(`every operation answers only documented statuses and schemas (seed ${SEED}, ${RUNS} runs per operation)`, async () => {
    const target = name === 'relay' ? relay : service;
    const validate = validators(target.doc, `https://${name}.test/openapi`);
    const failures: string[] = [];
    const tally: Record<string, number[]> = {};
    const ops = operations(target.doc);
    for (const [index, [path, method, op]] of ops.entries()) {
      const seen = new Set<number>();
      try {
        await fc.assert(fc.asyncProperty(requests(target, path, method, op, index), async (sent) => {
          const problem = await check(target, op, sent, validate, seen);
          if (problem) throw new Error(`${sent.method} ${sent.path} ${sent.body ?? ''} ${problem}`);
        }), { seed: SEED, numRuns: RUNS, endOnFailure: true });
      } catch (error) {
        failures.push(`${op.operationId}: ${(error as Error).message.split('\n').slice(0, 8).join('\n')}`);
      }
      tally[op.operationId] = [...seen].sort();
    }
    console.info(`${name}: statuses seen per operation (seed ${SEED}, ${RUNS} runs each): ${JSON.stringify(tally)}`);
    expect(ops.length).toBeGreaterThan(20);
    // The run reaches past validation: most operations answered a success for some generated request.
    const succeeded = Object.values(tally).filter((statuses) => statuses.some((s) => s < 300)).length;
    expect(succeeded, JSON.stringify(tally)).toBeGreaterThanOrEqual(Math.ceil(ops.length * 0.6));
    expect(failures, `replay with FUZZ_SEED=${SEED}`).toEqual([]);
  }, 300_000);
});
