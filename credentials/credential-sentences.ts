/**
 * What a failed token request (the credential's `preAuthentication`) throws: one sentence naming the credential
 * field to fix, with the core's error as its `cause`.
 *
 * Why a wrapper: n8n's credential tester (1.x and 2.x) shows `error.cause.code` when the thrown error has a `code`,
 * so a core error (`code: 'token_endpoint_error'`) or a socket error (`ECONNREFUSED`) showed as that bare word. The
 * wrapper has no `code` and no `response`, so the tester shows its message; the node still finds the core error by
 * following `cause` (asPartnerLearningError), with its own code, message and hint. No secret is ever in the
 * sentence: it names fields, the token URL's host and port, and the OAuth error word.
 */
import { NetworkError, TimeoutError, type Redactor } from '../core/protocol.ts';

/** The error `preAuthentication` throws. */
export class CredentialProblem extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'CredentialProblem';
  }
}

interface CoreLike {
  code?: unknown;
  oauthError?: unknown;
  status?: unknown;
  message?: unknown;
  hint?: unknown;
}

function hostOf(tokenUrl: string): string {
  try {
    const url = new URL(tokenUrl);
    return url.host;
  } catch {
    return 'the token URL';
  }
}

const SOCKET_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** The socket error code (ECONNREFUSED, …) in what the HTTP helper threw, if any. */
export function socketCodeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

/**
 * The core error for a token request that got no answer (so the node and its retries see a token-endpoint failure).
 *
 * @param thrown What n8n's `httpRequest` threw.
 * @param tokenUrl The credential's token URL.
 * @param redactor Removes the credential's secrets.
 */
export function tokenRequestFailure(thrown: unknown, tokenUrl: string, redactor: Redactor): NetworkError | TimeoutError {
  const code = socketCodeOf(thrown);
  const init = { origin: 'token-endpoint' as const, method: 'POST', url: tokenUrl, redactor, cause: thrown };
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') {
    return new TimeoutError({ ...init, message: 'The token endpoint did not answer in time' });
  }
  return new NetworkError({ ...init, message: `Could not reach the token endpoint${code ? ` (${code})` : ''}` });
}

/**
 * @param error The core error the token request ended in.
 * @param tokenUrl The credential's token URL.
 * @param requestedScopes The scopes the token request asked for.
 * @returns The sentence n8n shows, naming the field to fix.
 */
export function credentialSentence(error: unknown, tokenUrl: string, requestedScopes: string[]): string {
  const core = (error ?? {}) as CoreLike;
  const socket = socketCodeOf((error as { cause?: unknown } | undefined)?.cause);
  if (core.code === 'network_error' || core.code === 'timeout') {
    const what = socket ? (SOCKET_WORDS[socket] ?? socket) : core.code === 'timeout' ? 'no answer in time' : 'no answer';
    return `Nothing answered at the Token URL's host and port (${hostOf(tokenUrl)}: ${what}). Check the host and port in Token URL.`;
  }
  if (core.oauthError === 'invalid_client') {
    return 'The token endpoint rejected the Client ID or Client Secret (invalid_client). Check both, and that the API Key was not pasted into Client Secret (or the secret into API Key).';
  }
  if (core.oauthError === 'invalid_scope') {
    return requestedScopes.some((scope) => scope.endsWith('/write'))
      ? 'This client may only read, but the credential asks for Read and Write (invalid_scope). Set Scope to Read Only.'
      : 'The token endpoint refused the scope this credential asks for (invalid_scope). Ask the operator which scopes this client has.';
  }
  if (core.code === 'configuration_error' || core.status === 404 || core.status === 405) {
    return `The Token URL does not lead to a token endpoint (HTTP ${String(core.status ?? '?')}). Check its path: the environment's address ending in /oauth2/token.`;
  }
  if (core.code === 'token_endpoint_error') {
    return `The token endpoint refused the Client ID and Client Secret${core.oauthError ? ` (${String(core.oauthError)})` : ''}. Check Client ID, Client Secret and Token URL.`;
  }
  const message = typeof core.message === 'string' ? core.message : 'The token request failed';
  const hint = typeof core.hint === 'string' ? ` ${core.hint}` : '';
  return `${message}.${hint}`.replace(/\.\./g, '.');
}
