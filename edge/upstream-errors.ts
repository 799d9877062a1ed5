/**
 * The core's errors as the relay's problem responses (relay contract, "Errors"). The caller gets the core's stable
 * code and a detail written here (never the core's message, which names the upstream URL); the relay's own logger
 * gets what an operator needs to fix a credential problem.
 */
import { DeadlineError, InvalidResponseError, PartnerLearningError, QuotaExceededError, ServerError, ThrottledError, ValidationError } from '../core/index.ts';
import { problem } from './problem.ts';

/** Retry-After (seconds) when the service named none. */
const DEFAULT_RETRY_AFTER_S = 5;
/** A used-up daily quota lasts until the service's day rolls over; tell callers to wait a while. */
const QUOTA_RETRY_AFTER_S = 3600;

const CREDENTIAL_CODES = new Set(['authentication_failed', 'api_key_rejected', 'token_endpoint_error', 'configuration_error']);

const DETAILS: Record<string, string> = {
  validation_failed: 'The request is invalid: see violations.',
  not_found: 'No such resource for this partner (or it is not published).',
  inactive_learner: 'The learner is deactivated: reactivate them before acting for them.',
  missing_scope: "The relay's service credentials lack the scope this call needs.",
  conflict: 'The request conflicts with the resource state (SCORM modules report their own completion).',
  application_error: 'The service refused the request.',
};

/** What the relay logs about an upstream failure (the caller never sees it). */
export interface UpstreamFailureLog {
  (level: 'warn' | 'error', message: string, fields: Record<string, unknown>): void;
}

function retryAfterSeconds(ms: number | undefined): string {
  return String(ms === undefined ? DEFAULT_RETRY_AFTER_S : Math.max(1, Math.ceil(ms / 1000)));
}

/**
 * Maps an error thrown by a core call to the relay's answer.
 *
 * @param error What the core threw.
 * @param log Where operator hints go.
 * @returns A problem response.
 */
export function problemFromError(error: unknown, log: UpstreamFailureLog, scrub?: (text: string) => string): Response {
  const response = mapError(error, log);
  // The service's request id, when it sent one that is id-shaped and holds no secret, lets a partner quote it.
  const requestId = error instanceof PartnerLearningError ? upstreamRequestId(error.requestId, scrub) : undefined;
  if (requestId) response.headers.set('x-request-id', requestId);
  return response;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The service's `x-request-id` as the relay may pass it on (relay contract, "Headers"): id-shaped and free of every
 * known secret, else none (the relay's own id is sent instead).
 *
 * @param id What the service sent.
 * @param scrub Removes known secrets (a changed text held one).
 * @returns The id, or `undefined`.
 */
export function upstreamRequestId(id: string | undefined, scrub?: (text: string) => string): string | undefined {
  if (id === undefined || !REQUEST_ID.test(id) || id.includes('REDACTED')) return undefined;
  if (scrub && scrub(id) !== id) return undefined;
  // A JWT (an upstream bearer token echoed back) is id-shaped after all; its parts all start `eyJ`.
  return id.includes('eyJ') ? undefined : id;
}

function mapError(error: unknown, log: UpstreamFailureLog): Response {
  if (!(error instanceof PartnerLearningError)) {
    log('error', 'relay handler failed', { error: error instanceof Error ? error.name : typeof error });
    return problem(500, 'internal_error', { detail: 'The relay failed to handle the request.' });
  }
  const { code, status } = error;
  if (error instanceof ValidationError) {
    return problem(400, code, { detail: DETAILS[code] ?? 'Invalid request.', violations: error.violations });
  }
  if (CREDENTIAL_CODES.has(code)) {
    log('error', "the service rejected the relay's own credentials: check PARTNER_LEARNING_TOKEN_URL, PARTNER_LEARNING_BASE_URL (same environment), PARTNER_LEARNING_CLIENT_ID, PARTNER_LEARNING_CLIENT_SECRET, PARTNER_LEARNING_API_KEY and PARTNER_LEARNING_SCOPES", {
      code, status, requestId: error.requestId,
    });
    return problem(502, 'upstream_auth_failed', { detail: 'The relay could not authenticate with the service.' });
  }
  if (error instanceof QuotaExceededError) {
    return problem(429, code, { detail: "The partner's daily quota is used up.", headers: { 'retry-after': String(QUOTA_RETRY_AFTER_S) } });
  }
  // The deadline cut the retries of an answer that broke off: what the caller should know is that it was unusable.
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof DeadlineError && cause instanceof Error && cause.name === 'InvalidResponseError') {
    return mapError(new InvalidResponseError({ origin: 'api', message: cause.message, requestId: error.requestId }), log);
  }
  if (error instanceof DeadlineError) {
    log('warn', 'the service did not answer within the deadline', { code, requestId: error.requestId });
    return problem(504, 'upstream_timeout', { detail: 'The service did not answer in time: retry later.', headers: { 'retry-after': String(DEFAULT_RETRY_AFTER_S) } });
  }
  if (error instanceof InvalidResponseError) {
    log('warn', 'the service answered unusably (over 4 MiB, cut off, not JSON or not a record)', { code, status, requestId: error.requestId });
    return problem(502, 'upstream_invalid', { detail: 'The service answered with a body the relay cannot use.', headers: { 'retry-after': String(DEFAULT_RETRY_AFTER_S) } });
  }
  if (error instanceof ThrottledError) {
    return problem(429, code, { detail: 'The service is throttling: retry later.', headers: { 'retry-after': retryAfterSeconds(error.retryAfterMs) } });
  }
  if (error instanceof ServerError || code === 'network_error' || code === 'timeout') {
    log('warn', 'the service is unavailable', { code, status, requestId: error.requestId });
    const after = error instanceof ServerError ? error.retryAfterMs : undefined;
    return problem(503, 'upstream_unavailable', { detail: 'The service is unavailable: retry later.', headers: { 'retry-after': retryAfterSeconds(after) } });
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return problem(status, code, { detail: DETAILS[code] ?? 'The service refused the request.' });
  }
  log('warn', 'unexpected answer from the service', { code, status, requestId: error.requestId });
  return problem(503, 'upstream_unavailable', { detail: 'The service answered unexpectedly: retry later.', headers: { 'retry-after': String(DEFAULT_RETRY_AFTER_S) } });
}
