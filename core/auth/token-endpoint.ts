/**
 * The OAuth 2.0 client-credentials request, exactly as the specification fixes it: POST to the token URL with a
 * Basic header and the form body `grant_type=client_credentials&scope=…`. Response parsing is separate
 * ({@link parseTokenResponse}) so it can be tested without HTTP.
 */
import { decodeJwt } from 'jose';
import type { KyInstance } from 'ky';
import type { StoredToken } from '../types/options.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { errorFromResponse } from '../errors/factory.ts';
import type { Log } from '../log.ts';
import { readJsonOrText } from '../http/read-body.ts';
import { sendOnce } from '../http/send.ts';
import { basicCredential, type Redactor } from '../redact.ts';

/** Refresh this long before `expiresAt` (the specification's recommended refresh point). */
export const REFRESH_MARGIN_MS = 300_000;

/** Clock differences above this between `exp` and `expires_in` are treated as local clock skew. */
const SKEW_TOLERANCE_MS = 60_000;

/**
 * The Basic credential: base64 of the UTF-8 bytes of `clientId:clientSecret` (no `Buffer`, works everywhere).
 *
 * @param clientId The 26-character client ID.
 * @param clientSecret The client secret.
 * @returns The full header value, `Basic …`.
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${basicCredential(clientId, clientSecret)}`;
}

/**
 * The form body, byte for byte: `grant_type=client_credentials&scope=<scopes joined by a space, form-encoded>`.
 *
 * @param scopes The scopes to request.
 * @returns For the defaults: `grant_type=client_credentials&scope=partner-api%2Fread+partner-api%2Fwrite`.
 */
export function tokenRequestBody(scopes: readonly string[]): string {
  return new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }).toString();
}

/** What {@link requestToken} needs. */
export interface TokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  http: KyInstance;
  now: () => number;
  timeoutMs: number;
  signal?: AbortSignal;
  log?: Log;
  /** The client's redactor, for errors (default: the generic patterns). */
  redactor?: Redactor;
}

/**
 * Fetches a new access token.
 *
 * @param request Endpoint, credentials, scopes and the pipeline's ky instance and clock.
 * @returns The token with its expiry (epoch ms) and granted scopes.
 * @throws {TokenEndpointError} The endpoint refused (`invalid_client`, `invalid_scope`, …).
 * @throws {ConfigurationError} The answer is not a usable token, or it has no `scope` claim.
 * @throws {ServerError | ThrottledError | NetworkError | TimeoutError} Transient failures (retryable).
 */
export async function requestToken(request: TokenRequest): Promise<StoredToken> {
  const headers = new Headers({
    Authorization: basicAuthorization(request.clientId, request.clientSecret),
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  });
  const started = request.now();
  const response = await sendOnce(request.http, {
    method: 'POST',
    url: request.tokenUrl,
    headers,
    body: tokenRequestBody(request.scopes),
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    origin: 'token-endpoint',
    redactor: request.redactor,
  });
  const body = await readJsonOrText(response);
  request.log?.debug('token endpoint answered', { url: request.tokenUrl, status: response.status });
  if (!response.ok) {
    throw errorFromResponse({
      status: response.status, body, headers: response.headers, origin: 'token-endpoint',
      method: 'POST', url: request.tokenUrl, requestedScopes: request.scopes, now: request.now(), redactor: request.redactor,
    });
  }
  return parseTokenResponse(body, started, request.tokenUrl, request.log);
}

/**
 * Reads a successful token response: `access_token` (a JWT, decoded without verification: the client can neither
 * verify it nor needs to) and `expires_in`.
 *
 * @param body The parsed JSON body.
 * @param requestedAt When the request was sent (epoch ms); `expires_in` counts from there.
 * @param tokenUrl For error messages.
 * @param log Warns about local clock skew.
 * @returns The token to cache. `expiresAt` comes from `exp`, unless the local clock disagrees with the server's by
 *   more than a minute, in which case `expires_in` (immune to skew) is used.
 * @throws {ConfigurationError} No `access_token`, not a JWT, or no `scope` claim.
 */
export function parseTokenResponse(body: unknown, requestedAt: number, tokenUrl: string, log?: Log): StoredToken {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const accessToken = record.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new ConfigurationError({
      origin: 'token-endpoint', method: 'POST', url: tokenUrl,
      message: 'The token endpoint answered without an access_token',
      hint: 'Check that tokenUrl is the /oauth2/token endpoint',
    });
  }
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(accessToken);
  } catch {
    throw new ConfigurationError({
      origin: 'token-endpoint', method: 'POST', url: tokenUrl,
      message: 'The token endpoint returned an access token that is not a JWT',
      hint: 'Check that tokenUrl is the /oauth2/token endpoint',
    });
  }
  if (typeof claims.scope !== 'string') {
    throw new ConfigurationError({
      origin: 'token-endpoint', method: 'POST', url: tokenUrl,
      message: "The access token has no scope claim: the operator has not configured this client's allowed scopes",
      hint: 'Ask the operator to allow partner-api/read (and partner-api/write) for this client',
    });
  }
  const fromTtl = typeof record.expires_in === 'number' ? requestedAt + record.expires_in * 1000 : undefined;
  const fromExp = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  let expiresAt = fromExp ?? fromTtl ?? requestedAt + 3_600_000;
  if (fromExp !== undefined && fromTtl !== undefined && Math.abs(fromExp - fromTtl) > SKEW_TOLERANCE_MS) {
    log?.warn('the local clock and the token endpoint disagree; using expires_in for token expiry', {
      skewSeconds: Math.round((fromExp - fromTtl) / 1000),
    });
    expiresAt = fromTtl;
  }
  return { accessToken, expiresAt, scope: claims.scope };
}
