/**
 * One factory from an HTTP answer to an error class (stripe-node style). Decides by (status, body shape, origin);
 * every body shape of the specification's Errors tables is recognised.
 */
import { parseRetryAfter } from '../http/retry-after.ts';
import type { Redactor } from '../redact.ts';
import { stripPeriods, type PartnerLearningError, type ErrorInit } from './base.ts';
import { bodyText, readErrorBody, type BodyShape } from './body.ts';
import { ApiKeyError } from './api-key-error.ts';
import { ApplicationError } from './application-error.ts';
import { AuthenticationError } from './authentication-error.ts';
import { ConfigurationError } from './configuration-error.ts';
import { ConflictError } from './conflict-error.ts';
import { InactiveLearnerError } from './inactive-learner-error.ts';
import { MissingScopeError } from './missing-scope-error.ts';
import { NotFoundError } from './not-found-error.ts';
import { QuotaExceededError } from './quota-exceeded-error.ts';
import { ServerError } from './server-error.ts';
import { ThrottledError } from './throttled-error.ts';
import { TokenEndpointError } from './token-endpoint-error.ts';
import { ValidationError } from './validation-error.ts';

/** An HTTP answer that was not a success. */
export interface ErrorResponse {
  status: number;
  /** Parsed JSON, raw text, or `undefined` for an empty body. */
  body: unknown;
  headers?: Headers;
  /** `api` for the service (its gateway answers are recognised by shape), `token-endpoint` for the token URL. */
  origin: 'api' | 'token-endpoint';
  method?: string;
  url?: string;
  /** The scopes the token request asked for (named in the `invalid_scope` hint). */
  requestedScopes?: readonly string[];
  /** Epoch milliseconds, for an HTTP-date `Retry-After` (default `Date.now()`). */
  now?: number;
  /**
   * The client's redactor (knows its secret values). Every text from the service passes through it once, before it
   * is cut to length; default: the generic patterns only.
   */
  redactor?: Redactor;
}

const INACTIVE = /\binactive\b|deactivat|user status|not active|disabled user|user is disabled/i;
const SCOPE = /scope|permission|insufficient|not authori[sz]ed to access/i;
const QUOTA = /limit exceeded|quota/i;

/**
 * Maps a non-2xx answer to the matching `PartnerLearningError` subclass: a short `message` (what happened, with
 * the service's own words) and a `hint` (what to do).
 *
 * @param response Status, body, headers and where it came from.
 * @returns The error to throw (not thrown here).
 * @example
 * const error = errorFromResponse({ status: 403, body: '', origin: 'api', method: 'GET', url });
 * error instanceof ApiKeyError; // true
 */
export function errorFromResponse(response: ErrorResponse): PartnerLearningError {
  const shape = readErrorBody(response.body, response.redactor);
  const requestId = response.headers?.get('x-request-id') ?? response.headers?.get('x-amzn-requestid') ?? undefined;
  const base: Base = { status: response.status, requestId, method: response.method, url: response.url, redactor: response.redactor };
  return response.origin === 'token-endpoint'
    ? fromTokenEndpoint(response, shape, base)
    : fromApi(response, shape, base);
}

type Base = Omit<ErrorInit, 'message' | 'origin'>;

/** `: <the service's text>` without its closing period (the error adds exactly one), or nothing. */
function said(shape: BodyShape): string {
  const text = stripPeriods(bodyText(shape));
  return text ? `: ${text}` : '';
}

function fromApi(response: ErrorResponse, shape: BodyShape, base: Base): PartnerLearningError {
  const { status } = response;
  const origin = shape.kind === 'gateway' || shape.kind === 'empty' ? 'gateway' : 'api';
  const text = bodyText(shape);

  if (status === 400 && shape.kind === 'validation') {
    return new ValidationError({
      ...base, origin: 'api', violations: shape.violations,
      message: `The service rejected the input (400 validation_failed)${said(shape)}`,
      hint: 'Fix these fields and send again',
    });
  }
  if (status === 400) {
    const hint = /x-user-id/i.test(text)
      ? "Send the learner's 36-character UUID (from registration) as X-User-ID"
      : 'Fix the request; sending it again unchanged fails the same way';
    return new ApplicationError({ ...base, origin, message: `The service rejected the request (400)${said(shape)}`, hint });
  }
  if (status === 401) {
    return new AuthenticationError({
      ...base, origin,
      message: `The service rejected the access token (401${said(shape)}), also after a fresh token was fetched`,
      hint:
        'A configuration problem, so retrying will not help. Check that the token URL and the base URL belong to the ' +
        'same environment (a sandbox token is rejected by production and vice versa), that tokenUrl is that ' +
        "environment's /oauth2/token, and that this machine's clock is correct",
    });
  }
  if (status === 403) return fromForbidden(shape, base);
  if (status === 404) {
    return new NotFoundError({
      ...base, origin,
      message: `Not found (404)${said(shape)}`,
      hint: 'The resource does not exist, is not published, or belongs to another partner (or the learner UUID is not yours)',
    });
  }
  if (status === 409) {
    return new ConflictError({
      ...base, origin,
      message: `Conflict (409)${said(shape)}`,
      hint: "The resource's state does not allow this; a SCORM module reports its own completion and cannot be completed by POST /complete",
    });
  }
  if (status === 415) {
    return new ApplicationError({
      ...base, origin,
      message: `Unsupported media type (415)${said(shape)}`,
      hint: 'PATCH needs Content-Type application/merge-patch+json, POST application/json',
    });
  }
  if (status === 429) return fromTooMany(response, shape, base, 'gateway');
  if (status >= 500) {
    // A 503 may say when to come back (RFC 9110 10.2.3), and a gateway may send it with other 5xx: honoured like a 429's.
    const retryAfterMs = parseRetryAfter(response.headers?.get('retry-after'), response.now ?? Date.now());
    return new ServerError({
      ...base, origin, retryAfterMs,
      message: `The service failed (${status})${said(shape)}`,
      hint: 'Retried with backoff without success; check GET /ping to tell an outage from one failing endpoint',
    });
  }
  return new ApplicationError({ ...base, origin, message: `Unexpected answer (${status})${said(shape)}` });
}

function fromForbidden(shape: BodyShape, base: Base): PartnerLearningError {
  const text = bodyText(shape);
  if (shape.kind === 'empty' || (shape.kind === 'gateway' && /^forbidden$/i.test(text))) {
    return new ApiKeyError({
      ...base, origin: 'gateway',
      message: 'The API gateway rejected the API key (403 with empty body)',
      hint:
        "Check that apiKey is this environment's x-api-key value, that it is not disabled, and that it was not " +
        'swapped with the client ID or secret',
    });
  }
  const origin = shape.kind === 'gateway' ? 'gateway' : 'api';
  if (INACTIVE.test(text)) {
    return new InactiveLearnerError({
      ...base, origin,
      message: `The learner in X-User-ID is deactivated (403)${said(shape)}`,
      hint: 'Reactivate them (PATCH status active) before user-scoped calls',
    });
  }
  if (SCOPE.test(text)) {
    const scope = /partner-api\/[a-z]+/i.exec(text)?.[0];
    return new MissingScopeError({
      ...base, origin, scope,
      message: `The access token lacks the scope this operation needs${scope ? ` (${scope})` : ''} (403)${said(shape)}`,
      hint: 'Request it in the scopes option, or ask the operator to allow it for this client (a read-only client cannot write)',
    });
  }
  return new ApplicationError({ ...base, origin, message: `The service refused the request (403)${said(shape)}` });
}

function fromTooMany(
  response: ErrorResponse, shape: BodyShape, base: Base, origin: 'gateway' | 'token-endpoint',
): PartnerLearningError {
  const text = bodyText(shape);
  if (QUOTA.test(text)) {
    return new QuotaExceededError({
      ...base, origin,
      message: `The usage plan's daily quota is used up (429${said(shape)})`,
      hint: 'Not retried: wait for the quota to reset, or ask the operator for a larger plan',
    });
  }
  const retryAfterMs = parseRetryAfter(response.headers?.get('retry-after'), response.now ?? Date.now());
  return new ThrottledError({
    ...base, origin, retryAfterMs,
    message: `Too many requests (429${said(shape)}): the usage plan's rate was exceeded through every retry`,
    hint: 'Lower the request rate (rateLimit option) or try again later',
  });
}

const GRANT_HINT = 'The body must be exactly grant_type=client_credentials, form-encoded (application/x-www-form-urlencoded)';

const OAUTH_HINTS: Record<string, (scopes: string) => string> = {
  invalid_client: () => 'Check the client ID and secret, and that the API key was not put in their place',
  invalid_scope: (scopes) =>
    `This client is not allowed scope ${scopes || '(none requested)'}; request only the scopes the operator granted it (a read-only client: scopes ['partner-api/read'])`,
  invalid_grant: () => GRANT_HINT,
  unsupported_grant_type: () => GRANT_HINT,
  unauthorized_client: () => 'This client may not use the client-credentials grant; ask the operator to enable it',
  invalid_request: () => 'The token request was malformed; check that tokenUrl is the /oauth2/token endpoint',
};

function fromTokenEndpoint(response: ErrorResponse, shape: BodyShape, base: Base): PartnerLearningError {
  const origin = 'token-endpoint';
  if (shape.kind === 'oauth') {
    const hint = OAUTH_HINTS[shape.error]?.((response.requestedScopes ?? []).join(' '));
    const detail = shape.description ? ` (${stripPeriods(shape.description)})` : '';
    return new TokenEndpointError({
      ...base, origin, oauthError: shape.error, hint,
      message: `The token endpoint refused the request: ${shape.error}${detail}`,
    });
  }
  if (response.status === 429) return fromTooMany(response, shape, base, origin);
  if (response.status >= 500) {
    return new ServerError({ ...base, origin, message: `The token endpoint failed (${response.status})${said(shape)}` });
  }
  if (response.status === 404 || response.status === 405) {
    return new ConfigurationError({
      ...base, origin,
      message: `The token URL answered ${response.status}${said(shape)}`,
      hint: "Check that tokenUrl is the environment's /oauth2/token endpoint",
    });
  }
  return new TokenEndpointError({
    ...base, origin, oauthError: `http_${response.status}`,
    message: `The token endpoint refused the request (${response.status})${said(shape)}`,
    hint: 'Check the client ID, secret and tokenUrl',
  });
}
