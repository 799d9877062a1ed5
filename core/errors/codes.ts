/**
 * Stable error codes. One error class per code (see the files beside this one); `code` never changes once
 * released, so callers may switch on it. Class names in parentheses.
 */
export const ErrorCode = {
  /** (ValidationError) input invalid: locally before any request, or the service's `validation_failed` 400. */
  VALIDATION: 'validation_failed',
  /** (ApplicationError) a `hydra:Error` from the API application not covered by a narrower class (400, 415, …). */
  APPLICATION: 'application_error',
  /** (AuthenticationError, a ConfigurationError) 401 that persisted after a fresh token: a configuration problem. */
  AUTHENTICATION: 'authentication_failed',
  /** (ApiKeyError) 403 with empty body: API key missing, wrong or disabled. */
  API_KEY: 'api_key_rejected',
  /** (MissingScopeError) 403 naming a scope: the token lacks it. */
  MISSING_SCOPE: 'missing_scope',
  /** (InactiveLearnerError) 403 about user status: the X-User-ID learner is deactivated. */
  INACTIVE_LEARNER: 'inactive_learner',
  /** (NotFoundError) 404: missing, or not this partner's. */
  NOT_FOUND: 'not_found',
  /** (ConflictError) 409: e.g. completing a SCORM module. */
  CONFLICT: 'conflict',
  /** (ThrottledError) 429 `Too Many Requests` after all retries. */
  THROTTLED: 'throttled',
  /** (QuotaExceededError) 429 `Limit Exceeded`: the daily quota is used up; not retried. */
  QUOTA_EXCEEDED: 'quota_exceeded',
  /** (ServerError) 5xx after all retries. */
  SERVER: 'server_error',
  /** (NetworkError) the request did not get an HTTP answer. */
  NETWORK: 'network_error',
  /** (RedirectError) the service or token endpoint answered 3xx: never followed, so credentials stay put. */
  REDIRECT: 'unexpected_redirect',
  /** (TimeoutError) no answer, or no whole JSON body, within `timeoutMs` of one attempt. */
  TIMEOUT: 'timeout',
  /** (DeadlineError) the call's overall deadline (`deadlineMs`: every attempt, wait and body read) passed. */
  DEADLINE: 'deadline_exceeded',
  /** (InvalidResponseError) a 2xx answer that cannot be used: not JSON, over the size cap, nested too deep, no record. */
  INVALID_RESPONSE: 'invalid_response',
  /** (TokenEndpointError) the token endpoint refused: `invalid_client`, `invalid_scope`, … (see `oauthError`). */
  TOKEN_ENDPOINT: 'token_endpoint_error',
  /** (ConfigurationError) bad options, a token without `scope` claim, a token URL that is no token endpoint. */
  CONFIGURATION: 'configuration_error',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
