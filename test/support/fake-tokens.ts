/**
 * Test helpers for the pipeline's unit tests: unsigned JWTs shaped like the service's access tokens, and JSON
 * responses.
 */
import { UnsecuredJWT } from 'jose';

/**
 * An unsigned JWT with the service's access-token claims (the client never verifies signatures).
 *
 * @param claims Overrides; `scope: undefined` leaves the claim out.
 * @param now Epoch ms for `iat`/`exp` (exp = now + 3600 s unless given).
 * @returns The compact JWT.
 */
export function fakeAccessToken(claims: Record<string, unknown> = {}, now = Date.UTC(2026, 10, 22, 12)): string {
  const base: Record<string, unknown> = {
    sub: 'c1ient1d0000000000000000ab', token_use: 'access', scope: 'partner-api/read partner-api/write',
    iss: 'https://idp.example.com/pool', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 3600,
    client_id: 'c1ient1d0000000000000000ab', jti: crypto.randomUUID(), ...claims,
  };
  for (const key of Object.keys(base)) if (base[key] === undefined) delete base[key];
  return new UnsecuredJWT(base).encode();
}

/**
 * A JSON `Response`.
 *
 * @param status HTTP status.
 * @param body Serialized as JSON (`undefined`: empty body).
 * @param headers Extra headers.
 * @returns The response.
 */
export function jsonResponse(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined || status === 204 ? null : JSON.stringify(body), {
    status, headers: { 'content-type': 'application/json', ...headers },
  });
}
