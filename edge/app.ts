/**
 * `createRelay(deps)`: the edge relay as one Hono app. It imports no runtime: configuration, token store, rate
 * limiter, logger and fetch are injected by the entry files (`workers.ts`, `deno.ts`, `node.ts`).
 *
 * Order of work per request (relay contract): CORS first (so every answer, 401s included, carries it), then the
 * route is matched (404/405 before anything else), then the caller is authenticated, then inputs are checked, and
 * only then does the core call the service.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { createClient, createLimiter, type Limiter, type Logger, type LogLevel, type PartnerLearningClient, type TokenStore } from '../core/index.ts';
import { basicCredential, createLog, createRedactor } from '../core/protocol.ts';
import { RelayKeyRing } from './caller.ts';
import { readRelayConfig, type RelayConfig, type RelaySettings } from './config.ts';
import { finishResponse } from './finish.ts';
import type { RelayEnv } from './route-types.ts';
import { routeChain } from './handle.ts';
import { mintLearnerToken } from './learner-token.ts';
import { problem } from './problem.ts';
import { memoryRateLimiter, type RateLimiter } from './learner-limit.ts';
import type { OpenApiVersion } from '../core/validation/openapi.ts';
import { relayOpenApiDocument } from './openapi/document.ts';
import { apiReference, REFERENCE_PATH, referenceSettings } from './reference.ts';
import { routes } from './routes.ts';
import { createScrubber } from './scrub.ts';
import { relayTokenStore } from './token-store.ts';
import { problemFromError } from './upstream-errors.ts';

/** What the entry files inject. */
export interface RelayDeps {
  /** Workers `env`, `process.env` or `Deno.env.toObject()` (see the relay contract, "Configuration"). */
  settings: RelaySettings;
  /** The durable token cache (Workers KV, Deno KV); fronted by isolate memory. Absent: memory only. */
  tokenStore?: TokenStore;
  /** Name of a binding that must supply `tokenStore` (Workers: `TOKEN_CACHE`); its absence is a misconfiguration. */
  requiredTokenStore?: string;
  /** Per-learner limiter (default: 120 a minute, in memory). */
  rateLimiter?: RateLimiter;
  /** Receives the relay's and the core's log lines, secrets redacted. */
  logger?: Logger;
  /**
   * The lowest level `logger` receives (default `debug`: every line). The entries pass `RELAY_LOG_LEVEL`'s, so lines
   * the logger would drop (the core's two debug lines a call) are not redacted first.
   */
  logLevel?: LogLevel;
  /** The `fetch` the core calls the service with. */
  fetch?: typeof fetch;
  /** Epoch milliseconds (token checks, limits). */
  now?: () => number;
  /**
   * The core client's throttling state; default: one for this relay on its clock (safe in a Worker: a queued call
   * keeps a timer of its own). The relay reads its pause to answer at once when the wait would outlast the deadline.
   */
  limiter?: Limiter;
  /** The core's retry policy (tests shorten it). */
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /**
   * The origin callers reach the relay at, for links in bodies, when `RELAY_PUBLIC_ORIGIN` is not set: the Node and
   * Deno entries give their listening origin, so a caller's `Host` header (or an absolute-form request line) never
   * decides where links point. Absent (Workers): the request's URL as the platform resolved it.
   */
  publicOrigin?: () => string | undefined;
}

/** The relay's throttling state for the service's API key, on the relay's clock; waits on timers of their own. */
function relayLimiter(now: () => number): Limiter {
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> => new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });
  // workerd cancels a request that awaits only another request's promise: callers in the key's line keep a timer.
  return createLimiter({ now, sleep, keepAliveMs: 100 });
}

/** The largest JSON answer the relay reads from the service (relay contract, "Errors"). */
const MAX_UPSTREAM_JSON_BYTES = 4 * 1024 * 1024;

/** Methods browsers may use (preflight answer). */
const CORS_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'];

function buildClient(config: RelayConfig, deps: RelayDeps, logger: Logger | undefined, store: TokenStore, limiter: Limiter): PartnerLearningClient {
  return createClient({
    tokenUrl: config.tokenUrl,
    baseUrl: config.baseUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    apiKey: config.apiKey,
    scopes: config.scopes,
    environment: 'relay',
    tokenStore: store,
    deadlineMs: config.deadlineMs,
    maxResponseBytes: MAX_UPSTREAM_JSON_BYTES,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
    limiter,
    ...(logger ? { logger } : {}),
    ...(deps.logLevel ? { logLevel: deps.logLevel } : {}),
  });
}

/**
 * Every problem with these settings, as the relay would report it (`npm run relay` refuses to start on any).
 *
 * @param settings As for {@link createRelay}.
 * @returns Problems, each naming its setting; empty when the relay can start.
 */
export function relaySettingsProblems(settings: RelaySettings): string[] {
  const parsed = readRelayConfig(settings);
  if (!parsed.ok) return parsed.problems;
  try {
    buildClient(parsed.config, { settings }, undefined, relayTokenStore(undefined), relayLimiter(Date.now));
    return [];
  } catch (error) {
    return [clientProblem(error, createRedactor([parsed.config.clientSecret, parsed.config.apiKey]).text)];
  }
}

function clientProblem(error: unknown, redactText: (text: string) => string): string {
  return `the PARTNER_LEARNING_* settings were refused: ${error instanceof Error ? redactText(error.message) : 'invalid'}`;
}

/**
 * Creates the relay.
 *
 * @param deps Settings and the runtime's parts.
 * @returns A Hono app: `app.fetch(request, env?, ctx?)` serves it on any runtime.
 * @example
 * const app = createRelay({ settings: process.env, fetch });
 * serve({ fetch: app.fetch, port: 8787 });
 */
export function createRelay(deps: RelayDeps): Hono<RelayEnv> {
  const now = deps.now ?? Date.now;
  const parsed = readRelayConfig(deps.settings);
  const problems = parsed.ok ? [] : [...parsed.problems];
  if (deps.requiredTokenStore && !deps.tokenStore) {
    problems.push(`${deps.requiredTokenStore} is missing: bind a Workers KV namespace as ${deps.requiredTokenStore}`);
  }
  const config = parsed.ok ? parsed.config : undefined;
  const secrets = config
    ? [config.clientSecret, config.apiKey, basicCredential(config.clientId, config.clientSecret), config.learnerTokenSecret, ...config.relayKeys]
    : [];
  const redactor = createRedactor(secrets);
  const store = relayTokenStore(deps.tokenStore, now);
  const limiter = deps.limiter ?? relayLimiter(now);
  const scrub = createScrubber(secrets, () => store.knownTokens());
  // The core's wrapper, with the relay's secrets: redacted, below the level dropped, a failing logger ignored.
  const relayLog = createLog(deps.logger, redactor, deps.logLevel);
  const log: Logger = (level, message, fields) => relayLog[level](message, fields);

  let client: PartnerLearningClient | undefined;
  if (config && problems.length === 0) {
    try {
      client = buildClient(config, deps, deps.logger ? log : undefined, store, limiter);
    } catch (error) {
      problems.push(clientProblem(error, redactor.text));
    }
  }
  if (problems.length > 0) log('error', 'relay misconfigured', { problems });

  const allowed = new Set(config?.allowedOrigins ?? []);
  const app = new Hono<RelayEnv>();
  // The relay's own id for every request; a caller's X-Request-Id is neither read nor trusted.
  app.use('*', requestId({ headerName: '' }));
  app.use('*', finishResponse(log, config?.allowedOrigins ?? [], now));
  app.use('*', cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: CORS_METHODS,
    allowHeaders: ['authorization', 'content-type'],
    exposeHeaders: ['x-request-id', 'content-disposition', 'retry-after'],
    maxAge: 600,
  }));
  app.use('*', secureHeaders({
    overwrite: false,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    strictTransportSecurity: 'max-age=31536000; includeSubDomains',
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }));

  // The description needs no credentials and no configuration (issue 18).
  // Built on first request, once per relay (each is a few hundred kB of schema work).
  const documents = new Map<OpenApiVersion, Record<string, unknown>>();
  const document = (version: OpenApiVersion) => documents.get(version) ?? documents.set(version, relayOpenApiDocument(version)).get(version)!;
  app.get('/v1/openapi.json', (c) => c.json(document('3.1')));
  app.get('/v1/openapi-3.0.json', (c) => c.json(document('3.0')));
  const reference = referenceSettings(deps.settings);
  if (reference) app.get(REFERENCE_PATH, apiReference(reference.script));

  if (!config || !client || problems.length > 0) {
    const named = problems.join('; ');
    app.use('*', async () => problem(500, 'relay_misconfigured', { detail: `The relay is misconfigured: ${named}` }));
  } else {
    const fixedOrigin = config.publicOrigin;
    const publicOrigin = (url: URL): string => fixedOrigin ?? deps.publicOrigin?.() ?? url.origin;
    const ready = {
      config, client, keys: new RelayKeyRing(config.relayKeys), limiter: deps.rateLimiter ?? memoryRateLimiter(), now, log, scrub, publicOrigin, upstreamLimiter: limiter,
    };
    const mintToken = (userId: string, ttl: number) => mintLearnerToken(config.learnerTokenKey, userId, ttl, now());
    for (const route of routes) {
      const [method, caller, limit, inputs, call] = routeChain(route, ready, mintToken);
      app.all(route.path, method, caller, limit, inputs, call);
    }
  }
  app.notFound(() => problem(404, 'not_found', { detail: 'No such route: see the relay contract for the paths under /v1.' }));
  app.onError((error) => problemFromError(error, log));
  return app;
}
