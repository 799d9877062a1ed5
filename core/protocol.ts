/**
 * The protocol core for drivers other than ky (the n8n driver bundles this entry): every endpoint through
 * {@link clientOnTransport}, the token request builder and response parser, the error factory and classes, the
 * redactor, the backoff policy, pagination and the limiter (`createLimiter`, on the `now` and `sleep` the driver
 * gives it, e.g. n8n's). It imports no HTTP library, no timer and no global, so a bundle of it passes n8n's
 * community-package scanner (`protocol.test.ts` checks the bundle).
 */
export { clientOnTransport } from './client-on-transport.ts';
export type { ApiRequest, ApiResponse, HttpMethod, Transport } from './transport.ts';
export type * from './types/records.ts';
export type * from './types/options.ts';
export type * from './types/calls.ts';
export type * from './types/resources.ts';
export type * from './types/client-api.ts';

export { basicAuthorization, parseTokenResponse, REFRESH_MARGIN_MS, tokenRequestBody } from './auth/token-endpoint.ts';
export * from './errors/index.ts';
export { basicCredential, createRedactor, redact, REDACTED, isSensitiveKey, secretSpellings, type Redactor } from './redact.ts';
export { createLog, LOG_LEVEL_RANK } from './log.ts';
export { backoffDelay, callPolicy, isRetryable, retryDelay, type RetryPolicy } from './http/retry.ts';
export { nextStep, type NextStep, type StepInput } from './http/next-step.ts';
export { createLimiter, type Limiter, type LimiterOptions, type Outcome } from './http/limiter.ts';
export { sharedLimiterOn, type SharedLimiterOptions, type SharedLimiterRuntime } from './http/shared-limiter.ts';
export { CALL_DEFAULTS, outcomeOf, runCall, type Attempt, type AttemptInput, type CallDriver, type CallSettings } from './http/run-call.ts';

export { fingerprint, sha256Bytes, sha256Hex } from './hash.ts';
export { abortReason, checkSignal, isAbortSignal, raceAbort } from './signal.ts';
export { resolveRequestUrl } from './http/url.ts';
export { parseJsonOrText } from './http/read-body.ts';
export { MAX_PAGE_SIZE, uuidSchema } from './validation/schemas.ts';

export { deltaSync, recordId, UPDATED_AFTER_PARAM } from './pagination/delta-sync.ts';
export { parsePage } from './pagination/page.ts';
export { fetchPage, fetchPages, nextRequest, paginate, singlePage } from './pagination/paginate.ts';
export { responseInfo, RESPONSE_HEADER_ALLOWLIST } from './resources/call.ts';
