/**
 * One matched route as a Hono middleware chain (`app.all(path, ...routeChain(route, relay))`): the method (405),
 * the caller (401/403, `c.var.caller`), the learner's limit (429), the inputs (400/413/415, `c.var.inputs`), then the
 * core call and the answer built from the service's status, request id and body. Routes are matched before callers
 * are authenticated, and callers before input is validated (relay contract, "Routes").
 */
import type { MiddlewareHandler } from 'hono';
import type { LearnerClient, Limiter, Logger, PartnerLearningClient } from '../core/index.ts';
import { uuidSchema } from '../core/protocol.ts';
import { identifyCaller, type Caller, type RelayKeyRing } from './caller.ts';
import type { RelayConfig } from './config.ts';
import { linkRewriter } from './links.ts';
import { problem } from './problem.ts';
import type { RateLimiter } from './learner-limit.ts';
import type { Method, RelayEnv, RouteOperation, Route, RunContext } from './route-types.ts';
import { pathParamSchemas } from './inputs.ts';
import { readBody } from './request-body.ts';
import { UpstreamCapture, type Upstream } from './upstream.ts';
import { problemFromError, upstreamRequestId } from './upstream-errors.ts';
import type { Scrubber } from './scrub.ts';
import { idleLimited } from './idle-stream.ts';

/** What a route needs from the configured relay. */
export interface ReadyRelay {
  config: RelayConfig;
  client: PartnerLearningClient;
  keys: RelayKeyRing;
  limiter: RateLimiter;
  now: () => number;
  log: Logger;
  /** Removes the relay's secrets (and the upstream tokens it holds) from what upstream sent. */
  scrub: Scrubber;
  /** The origin links point at: configured, or the entry's own listening origin; never the caller's `Host`. */
  publicOrigin: (url: URL) => string;
  /** The core client's throttling state: its key-wide pause after a 429 or 5xx. */
  upstreamLimiter: Limiter;
}

function invalid(propertyPath: string, message: string): Response {
  return problem(400, 'validation_failed', { detail: 'The request is invalid: see violations.', violations: [{ propertyPath, message }] });
}

function unauthenticated(code: 'unauthenticated' | 'invalid_token'): Response {
  const challenge = code === 'invalid_token'
    ? 'Bearer realm="partner-learning-relay", error="invalid_token"'
    : 'Bearer realm="partner-learning-relay"';
  const detail = code === 'invalid_token'
    ? 'The learner token is invalid or expired: get a new one from the partner backend.'
    : 'Send X-Relay-Key (partner backends) or Authorization: Bearer <learner token> (browsers).';
  return problem(401, code, { detail, headers: { 'www-authenticate': challenge } });
}

function checkParams(route: Route, params: Record<string, string>): Response | undefined {
  for (const [name, kind] of Object.entries(route.params ?? {})) {
    const value = params[name] ?? '';
    const checked = pathParamSchemas[kind].safeParse(value);
    if (!checked.success) return invalid(name, checked.error.issues[0]?.message ?? 'Invalid.');
  }
  return undefined;
}

/** Who the call acts for: the token's learner, or the backend's X-User-ID (checked). */
function actingUser(caller: Caller, op: RouteOperation, headers: Headers): string | Response {
  if (caller.kind === 'learner') return caller.userId;
  if (!op.userScoped) return '';
  const header = headers.get('x-user-id');
  if (header === null || header.trim() === '') return invalid('X-User-ID', 'This route acts for a learner: send X-User-ID with their UUID.');
  if (!uuidSchema.safeParse(header.trim()).success) return invalid('X-User-ID', "Must be the learner's 36-character UUID.");
  return header.trim();
}

/** `inline` or `attachment` as upstream said, and a file name of safe characters only (never a path). */
function disposition(upstream: string | undefined, fileName: string): string {
  const kind = /^\s*attachment\b/i.test(upstream ?? '') ? 'attachment' : 'inline';
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const safe = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'document.pdf';
  return `${kind}; filename="${safe}"`;
}

interface AnswerOptions {
  /** The link rewriter for each string of a JSON body. */
  rewrite: (text: string) => string;
  scrub: Scrubber;
  /** HEAD: headers only; the upstream body is cancelled unread. */
  head: boolean;
  idleMs: number;
}

function answer(upstream: Upstream, o: AnswerOptions): Response {
  const headers = new Headers();
  const requestId = upstreamRequestId(upstream.requestId, o.scrub.text);
  if (requestId) headers.set('x-request-id', requestId);
  if (upstream.kind === 'empty') return new Response(null, { status: upstream.status, headers });
  if (upstream.kind === 'pdf') {
    const { pdf } = upstream;
    headers.set('content-type', /^application\/pdf\b/i.test(pdf.contentType) ? pdf.contentType : 'application/pdf');
    if (pdf.contentLength !== undefined) headers.set('content-length', String(pdf.contentLength));
    headers.set('content-disposition', disposition(upstream.disposition, pdf.fileName));
    if (o.head) {
      void pdf.body.cancel().catch(() => undefined);
      return new Response(null, { status: upstream.status, headers });
    }
    return new Response(idleLimited(pdf.body, o.idleMs), { status: upstream.status, headers });
  }
  headers.set('content-type', /^application\/(ld\+)?json\b/i.test(upstream.contentType ?? '') ? upstream.contentType! : 'application/json');
  const body = JSON.stringify(o.scrub.json(upstream.body, o.rewrite));
  return new Response(o.head ? null : body, { status: upstream.status, headers });
}

type Step = MiddlewareHandler<RelayEnv>;

/** 405 unless the route has the method (HEAD as GET); else the operation, for the steps after. */
function routeMethod(route: Route): Step {
  return async (c, next) => {
    const method = (c.req.method === 'HEAD' ? 'GET' : c.req.method) as Method;
    const op = route.methods[method];
    if (!op) {
      const methods = Object.keys(route.methods);
      const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      return problem(405, 'method_not_allowed', { detail: `Use ${allow} on this path.`, headers: { allow } });
    }
    c.set('op', op);
    await next();
  };
}

/** 401 without a valid relay key or learner token, 403 on a route for the other kind of caller; else `c.var.caller`. */
function callerAuth(relay: ReadyRelay): Step {
  return async (c, next) => {
    const caller = await identifyCaller(c.req.raw.headers, relay.keys, relay.config.learnerTokenKey, relay.now());
    if ('failure' in caller) return unauthenticated(caller.failure);
    const { access } = c.get('op');
    if (access === 'backend' && caller.kind === 'learner') return problem(403, 'forbidden', { detail: 'This route is for partner backends only.' });
    if (access === 'learner' && caller.kind === 'backend') return problem(403, 'forbidden', { detail: 'This route is for learners (a learner token) only.' });
    c.set('caller', caller);
    await next();
  };
}

/** 429 once a learner has used up their requests (partner backends are not limited here). */
function learnerLimit(relay: ReadyRelay): Step {
  return async (c, next) => {
    const caller = c.get('caller');
    if (caller.kind === 'learner') {
      const decision = await relay.limiter.limit(caller.userId);
      if (!decision.allowed) {
        return problem(429, 'rate_limited', { detail: 'Too many requests for this learner: retry later.', headers: { 'retry-after': String(decision.retryAfterSeconds) } });
      }
    }
    await next();
  };
}

/** 400/413/415 for a bad learner, path parameter or body; else `c.var.inputs`. */
function routeInputs(route: Route): Step {
  return async (c, next) => {
    const op = c.get('op');
    const userId = actingUser(c.get('caller'), op, c.req.raw.headers);
    if (userId instanceof Response) return userId;
    const badParam = checkParams(route, c.req.param() as Record<string, string>);
    if (badParam) return badParam;
    const body = await readBody(c.req.raw, op.body);
    if (body instanceof Response) return body;
    c.set('inputs', { op, userId, body: body.value });
    await next();
  };
}

/** A learner client for routes that are not user-scoped: using it is a mistake in the route table. */
const NO_LEARNER = new Proxy({} as LearnerClient, {
  get: () => {
    throw new Error('this route is not user-scoped: it has no learner to act for');
  },
});

/** The core call, bounded by the deadline and the caller's presence, and the answer. */
function callUpstream(relay: ReadyRelay, mintToken: RunContext['mintToken']): Step {
  // The rewriter for the last origin seen: one origin in practice, and no cache for a caller's Host to grow.
  let links: { v1: string; rewrite: (text: string) => string } | undefined;
  const rewriterFor = (v1: string) => (links?.v1 === v1 ? links : (links = { v1, rewrite: linkRewriter(relay.config.baseUrl, v1) })).rewrite;
  return async (c) => {
    const { op, userId, body } = c.get('inputs');
    // The caller leaving cancels the upstream call, until the answer is built: Deno aborts request.signal once a
    // response is returned, which must not cut a PDF streaming on. The deadline counts from the request's arrival.
    const upstream = new AbortController();
    const gone = c.req.raw.signal;
    const leave = (): void => upstream.abort(new DOMException('The caller went away.', 'AbortError'));
    if (gone.aborted) leave();
    else gone.addEventListener('abort', leave, { once: true });
    const deadlineMs = Math.max(1, relay.config.deadlineMs - (relay.now() - c.get('arrivedAt')));
    // The service asked every call on the key to wait (429s or 5xx) longer than this caller has: say so now, with
    // when to come back, instead of holding the caller until the deadline.
    const pausedMs = relay.upstreamLimiter.pauseRemaining();
    if (pausedMs >= deadlineMs) {
      return problem(503, 'upstream_unavailable', {
        detail: 'The service asked for a pause: retry later.', headers: { 'retry-after': String(Math.max(1, Math.ceil(pausedMs / 1000))) },
      });
    }
    const capture = new UpstreamCapture({ signal: upstream.signal, deadlineMs });
    try {
      const url = new URL(c.req.url);
      const params = c.req.param() as Record<string, string>;
      const learner = op.userScoped ? relay.client.forLearner(userId) : NO_LEARNER;
      const result = await op.run({ client: relay.client, learner, params, body, query: url.searchParams, capture, mintToken });
      if (result instanceof Response) return result;
      return answer(result, {
        rewrite: rewriterFor(`${relay.publicOrigin(url)}/v1`),
        scrub: relay.scrub, head: c.req.method === 'HEAD', idleMs: relay.config.deadlineMs,
      });
    } catch (error) {
      if (upstream.signal.aborted && gone.aborted) {
        // Nobody is left to read an answer: not an error of the relay's (no error log line).
        return problem(499, 'client_closed', { detail: 'The caller went away.' });
      }
      return problemFromError(error, relay.log, relay.scrub.text);
    } finally {
      gone.removeEventListener('abort', leave);
    }
  };
}

/**
 * The middleware chain of one route.
 *
 * @param route The route.
 * @param relay The configured relay.
 * @param mintToken Signs learner tokens.
 * @returns The steps, in order, for `app.all(route.path, ...steps)`.
 */
export function routeChain(route: Route, relay: ReadyRelay, mintToken: RunContext['mintToken']): [Step, Step, Step, Step, Step] {
  return [routeMethod(route), callerAuth(relay), learnerLimit(relay), routeInputs(route), callUpstream(relay, mintToken)];
}
