/**
 * Client options, validated and defaulted once (ky style). Everything downstream takes `NormalizedOptions` and can
 * rely on it. Messages name the offending field and never echo a secret or key value.
 */
import { z } from 'zod';
import type { ClientOptions, Logger, LogLevel, TokenStore } from './types/options.ts';
import type { Limiter } from './http/limiter.ts';
import { defaultTokenStore } from './auth/memory-token-store.ts';
import { LOG_LEVELS } from './log.ts';
import { ConfigurationError } from './errors/configuration-error.ts';
import type { RetryPolicy } from './http/retry.ts';
import { completeRateLimit, rateLimitSchema } from './http/rate-limit.ts';
import { CALL_DEFAULTS } from './http/run-call.ts';
import { redact } from './redact.ts';
import { defaultFetch, defaultNow, defaultSleep, isCloudflareWorkers } from './runtime.ts';

export const READ_SCOPE = 'partner-api/read';
export const WRITE_SCOPE = 'partner-api/write';
/** 8 MiB: a page of 100 records is well under 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** `ClientOptions` after validation: every default filled in, URLs canonical. */
export interface NormalizedOptions {
  tokenUrl: string;
  /** No trailing slash, ends in `/v1`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  /** As given (order kept for the token request), duplicates removed. */
  scopes: string[];
  environment: string | undefined;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  tokenStore: TokenStore;
  logger: Logger | undefined;
  logLevel: LogLevel;
  rateLimit: { requestsPerSecond: number; burst: number } | 'adaptive';
  /** The injected limiter, if any (else the transport picks the default for the key and clock). */
  limiter: Limiter | undefined;
  retry: RetryPolicy;
  timeoutMs: number;
  deadlineMs: number;
  maxResponseBytes: number;
  shareInFlight: boolean;
}

const fn = <T>(name: string) =>
  z.custom<T>((value) => typeof value === 'function', { message: `${name} must be a function` });

const schema = z.object({
  tokenUrl: z.string({ message: 'tokenUrl is required (a string URL)' }).min(1, 'tokenUrl is required'),
  baseUrl: z.string({ message: 'baseUrl is required (a string URL)' }).min(1, 'baseUrl is required'),
  clientId: z.string({ message: 'clientId is required (a string)' }).trim().min(1, 'clientId is required'),
  clientSecret: z.string({ message: 'clientSecret is required (a string)' }).trim().min(1, 'clientSecret is required'),
  apiKey: z.string({ message: 'apiKey is required (a string)' }).trim().min(1, 'apiKey is required'),
  scopes: z
    .array(z.string().regex(/^\S+$/, 'each scope must be a non-empty string without spaces'), {
      message: 'scopes must be an array of strings',
    })
    .min(1, `scopes must not be empty (use ['${READ_SCOPE}'] for a read-only client)`)
    .optional(),
  environment: z.string().optional(),
  fetch: fn<typeof fetch>('fetch').optional(),
  now: fn<() => number>('now').optional(),
  sleep: fn<(ms: number, signal?: AbortSignal) => Promise<void>>('sleep').optional(),
  tokenStore: z
    .custom<TokenStore>(
      (v) => typeof v === 'object' && v !== null && ['get', 'set', 'delete'].every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
      { message: 'tokenStore must have get, set and delete methods' },
    )
    .optional(),
  logger: fn<Logger>('logger').optional(),
  logLevel: z.enum(LOG_LEVELS, { message: `logLevel must be ${LOG_LEVELS.map((l) => `'${l}'`).join(', ').replace(/, ([^,]+)$/, ' or $1')}` }).optional(),
  rateLimit: rateLimitSchema.optional(),
  limiter: z
    .custom<Limiter>(
      (v) => typeof v === 'object' && v !== null && ['schedule', 'pause', 'pauseRemaining', 'wait'].every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
      { message: 'limiter must come from createLimiter (schedule, pause, pauseRemaining and wait methods)' },
    )
    .optional(),
  retry: z
    .object({
      maxAttempts: z.number().int().min(1, 'retry.maxAttempts must be at least 1').max(20, 'retry.maxAttempts must be at most 20').optional(),
      baseDelayMs: z.number().min(0, 'retry.baseDelayMs must be >= 0').max(60_000, 'retry.baseDelayMs must be at most 60000').optional(),
      maxDelayMs: z.number().min(0, 'retry.maxDelayMs must be >= 0').max(600_000, 'retry.maxDelayMs must be at most 600000').optional(),
    })
    .optional(),
  timeoutMs: z.number().int('timeoutMs must be an integer').min(1, 'timeoutMs must be at least 1').max(2_147_483_647).optional(),
  deadlineMs: z.number().int('deadlineMs must be an integer').min(1, 'deadlineMs must be at least 1').max(2_147_483_647).optional(),
  maxResponseBytes: z.number().int('maxResponseBytes must be an integer').min(1024, 'maxResponseBytes must be at least 1024').max(1024 ** 3, 'maxResponseBytes must be at most 1 GiB').optional(),
  shareInFlight: z.boolean().optional(),
});

/** C0 controls and DEL: never part of a credential, and CR/LF would split a header. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** What an API key sent raw as a header value may hold: visible ASCII. */
const HEADER_TOKEN = /^[\u0021-\u007e]+$/;

/** Problems with the URL and credential values that the schema cannot express; each names the field. */
function semanticProblems(o: z.infer<typeof schema>): string[] {
  const problems: string[] = [];
  const token = checkUrl('tokenUrl', o.tokenUrl, problems);
  const base = checkUrl('baseUrl', o.baseUrl, problems);
  if (base) {
    // Judge the text as given: `new URL('https://host')` has the path `/`, which is no trailing slash of the user's.
    const trailingSlash = /\/+$/.test(o.baseUrl) && base.pathname !== '/';
    if (trailingSlash) {
      problems.push(`baseUrl ends with a slash: remove the trailing slash (use ${redact.url(o.baseUrl).replace(/\/+$/, '')})`);
    }
    if (!base.pathname.replace(/\/+$/, '').endsWith('/v1')) {
      problems.push('baseUrl must end in /v1 (the API version is part of the base address, e.g. https://api.example.com/v1)');
    }
  }
  if (token && !token.pathname.replace(/\/+$/, '').endsWith('/oauth2/token')) {
    problems.push("tokenUrl's path must end in /oauth2/token (the token endpoint, e.g. https://auth.example.com/oauth2/token)");
  }
  // Never echo the value: a credential in an error message is a leaked credential.
  for (const field of ['clientId', 'clientSecret'] as const) {
    if (CONTROL.test(o[field])) {
      problems.push(`${field} contains a control character (a line break or tab pasted with it?): paste the value alone`);
    }
  }
  if (!HEADER_TOKEN.test(o.apiKey)) {
    problems.push('apiKey may hold only visible ASCII characters (it is sent as the x-api-key header): a line break, space or non-ASCII character was pasted with it');
  }
  if (o.clientId.length !== 26 && o.apiKey.length === 26) {
    problems.push('clientId and apiKey look swapped: a client ID is 26 characters and an API key about 40; put each in its own field');
  }
  if (o.clientId === o.apiKey || o.clientSecret === o.apiKey) {
    problems.push('apiKey has the same value as clientId or clientSecret: the API key is a separate credential (x-api-key)');
  }
  if (o.limiter && o.rateLimit) {
    problems.push('rateLimit and limiter are both given: pass the rate to createLimiter({ now, sleep, rateLimit }) instead');
  }
  const retry = o.retry ?? {};
  if ((retry.maxDelayMs ?? 30_000) < (retry.baseDelayMs ?? 1000)) {
    problems.push('retry.maxDelayMs must be at least retry.baseDelayMs');
  }
  return problems;
}

function checkUrl(field: string, value: string, problems: string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${field} must be an absolute http(s) URL`);
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') problems.push(`${field} must use https (or http for a local emulator)`);
  if (url.username || url.password) problems.push(`${field} must not contain credentials (user:password@)`);
  if (url.search || url.hash) problems.push(`${field} must not have a query string or fragment`);
  return url;
}

/**
 * Validates options and fills in defaults, once, in the client factory.
 *
 * @param options What the user passed.
 * @returns Options every part of the pipeline can trust.
 * @throws {ConfigurationError} Listing every problem found, each naming its field (never its value when secret).
 * @example
 * const normalized = normalizeOptions({ tokenUrl, baseUrl, clientId, clientSecret, apiKey });
 * normalized.retry.maxAttempts; // 5
 */
export function normalizeOptions(options: ClientOptions): NormalizedOptions {
  const parsed = schema.safeParse(options ?? {});
  const problems = parsed.success
    ? semanticProblems(parsed.data)
    : parsed.error.issues.map((issue) => (issue.path.length && !issue.message.includes(String(issue.path[0])) ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  if (!parsed.success || problems.length > 0) {
    throw new ConfigurationError({ origin: 'client', message: `Invalid client options: ${problems.join('; ')}`, hint: 'Fix each option named above' });
  }
  const o = parsed.data;
  const fetchFn = o.fetch ?? defaultFetch;
  if (!o.fetch && typeof globalThis.fetch !== 'function') {
    throw new ConfigurationError({ origin: 'client', message: 'Invalid client options: no global fetch in this runtime', hint: 'Pass the fetch option' });
  }
  const retry = o.retry ?? {};
  const normalized: NormalizedOptions = {
    tokenUrl: new URL(o.tokenUrl).toString(),
    baseUrl: o.baseUrl,
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    apiKey: o.apiKey,
    scopes: [...new Set(o.scopes ?? [READ_SCOPE, WRITE_SCOPE])],
    environment: o.environment,
    fetch: fetchFn,
    now: o.now ?? defaultNow,
    sleep: o.sleep ?? defaultSleep,
    tokenStore: o.tokenStore ?? defaultTokenStore,
    logger: o.logger,
    logLevel: o.logLevel ?? 'debug',
    rateLimit: completeRateLimit(o.rateLimit),
    limiter: o.limiter,
    retry: {
      maxAttempts: retry.maxAttempts ?? CALL_DEFAULTS.retry.maxAttempts,
      baseDelayMs: retry.baseDelayMs ?? CALL_DEFAULTS.retry.baseDelayMs,
      maxDelayMs: retry.maxDelayMs ?? CALL_DEFAULTS.retry.maxDelayMs,
    },
    timeoutMs: o.timeoutMs ?? CALL_DEFAULTS.timeoutMs,
    deadlineMs: o.deadlineMs ?? CALL_DEFAULTS.deadlineMs,
    maxResponseBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    shareInFlight: o.shareInFlight ?? !isCloudflareWorkers(),
  };
  hideSecrets(normalized);
  return normalized;
}

/** `JSON.stringify` and Node's `inspect` of the options show no secret (spreading still copies them). */
function hideSecrets(target: NormalizedOptions): void {
  const safe = (): Record<string, unknown> => ({ ...target, clientSecret: '[REDACTED]', apiKey: '[REDACTED]' });
  Object.defineProperty(target, 'toJSON', { value: safe, enumerable: false });
  Object.defineProperty(target, Symbol.for('nodejs.util.inspect.custom'), { value: safe, enumerable: false });
}
