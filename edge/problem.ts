/**
 * RFC 9457 problem details: every error the relay answers. `code` is the core's stable error code or one of the
 * relay's own; `detail` says what to fix and never holds a secret or an upstream URL.
 */

/** The relay's own problem codes (besides the core's `ErrorCode` values). */
export type RelayProblemCode =
  | 'unauthenticated'
  | 'invalid_token'
  | 'forbidden'
  | 'rate_limited'
  | 'relay_misconfigured'
  | 'upstream_unavailable'
  | 'upstream_auth_failed'
  | 'upstream_timeout'
  | 'upstream_invalid'
  | 'client_closed'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'internal_error';

/** One field-level problem, as the core's `ValidationError.violations`. */
export interface ProblemViolation {
  propertyPath: string;
  message: string;
}

/** What a problem response carries besides status and code. */
export interface ProblemInit {
  detail: string;
  violations?: ProblemViolation[];
  /** Extra response headers (`Retry-After`, `Allow`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The `type` URI of a problem code (a stable, non-resolving URN). */
export function problemType(code: string): string {
  return `urn:partner-learning:relay:problem:${code}`;
}

/**
 * Builds a problem+json response.
 *
 * @param status HTTP status.
 * @param code Stable problem code (the core's or the relay's).
 * @param init Detail, optional violations and headers.
 * @returns The response (`application/problem+json`).
 * @example
 * return problem(404, 'not_found', { detail: 'No such route: check the path against the relay contract' });
 */
export function problem(status: number, code: string, init: ProblemInit): Response {
  const body: Record<string, unknown> = {
    type: problemType(code),
    title: TITLES[status] ?? 'Error',
    status,
    detail: init.detail,
    code,
  };
  if (init.violations) body['violations'] = init.violations;
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/problem+json');
  return new Response(JSON.stringify(body), { status, headers });
}
