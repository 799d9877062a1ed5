/** Response helpers in the shapes of the stack the spec describes: API Platform (Hydra) and API Gateway. */

/** API Platform's JSON-LD media type. */
export const LD_JSON = 'application/ld+json; charset=utf-8';
const JSON_TYPE = 'application/json';

/** A field-level validation problem. */
export interface Violation {
  propertyPath: string;
  message: string;
}

/**
 * @param body any JSON value.
 * @param status HTTP status (default 200).
 * @returns a JSON-LD response.
 */
export function jsonLd(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': LD_JSON } });
}

/**
 * @param body any JSON value.
 * @param status HTTP status (default 200).
 * @returns a plain JSON response.
 */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE } });
}

/**
 * An API Platform error (`@type: hydra:Error`), carrying both the Hydra and the RFC 7807 field names.
 * @param status HTTP status.
 * @param description what went wrong, for humans.
 * @returns the error response.
 * @example hydraError(404, 'Not Found')
 */
export function hydraError(status: number, description: string): Response {
  const title = 'An error occurred';
  return jsonLd(
    {
      '@context': '/contexts/Error',
      '@id': `/errors/${status}`,
      '@type': 'hydra:Error',
      title,
      detail: description,
      status,
      type: `/errors/${status}`,
      description,
      'hydra:title': title,
      'hydra:description': description,
    },
    status,
  );
}

/** @returns 404 hydra:Error. */
export function notFound(description = 'Not Found'): Response {
  return hydraError(404, description);
}

/**
 * @param list the violations (at least one).
 * @returns 400 `{"error":"validation_failed","violations":[...]}`.
 */
export function validationFailed(list: Violation[]): Response {
  return json({ error: 'validation_failed', violations: list }, 400);
}

/** @returns the API gateway's terse JSON, e.g. `{"message":"Unauthorized"}`. */
export function gatewayMessage(status: number, message: string): Response {
  return json({ message }, status);
}

/**
 * @param status HTTP status (not 204/304, which carry no length at all).
 * @returns a response with an empty body and an explicit `Content-Length: 0`, so it is not sent chunked.
 */
export function emptyResponse(status: number): Response {
  return new Response(null, { status, headers: { 'content-length': '0' } });
}

/** @returns the API gateway's 403 with an empty body (API key missing, wrong or disabled). */
export function emptyForbidden(): Response {
  return emptyResponse(403);
}

/**
 * Reads a JSON body the way API Platform does.
 * @param request the request.
 * @returns the parsed value, or a 400 hydra:Error response for malformed JSON.
 */
export async function readJson(request: Request): Promise<{ value: unknown } | { error: Response }> {
  const text = await request.text();
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: hydraError(400, 'Syntax error: the request body is not valid JSON.') };
  }
}

/**
 * @param request the request.
 * @param accepted media types (without parameters).
 * @returns whether the Content-Type is one of them (parameters such as charset are ignored).
 */
export function hasMediaType(request: Request, accepted: string[]): boolean {
  const raw = request.headers.get('content-type');
  if (!raw) return false;
  const type = raw.split(';')[0]?.trim().toLowerCase() ?? '';
  return accepted.includes(type);
}
