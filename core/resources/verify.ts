/**
 * `verifyCredentials()`: proves the client ID and secret (a token), the API key and the read scope (one
 * authenticated read), where `ping` proves only the API key. Each failure is the typed error of the part that failed.
 */
import type { StoredToken } from '../types/options.ts';
import type { CallOptions } from '../types/calls.ts';
import type { CredentialsCheck } from '../types/client-api.ts';
import { MissingScopeError } from '../errors/missing-scope-error.ts';
import type { Transport } from '../transport.ts';
import { checkCall, send } from './call.ts';

/** What the driver can tell about its token (the ky driver can; a driver that hides it passes nothing). */
export interface TokenAccess {
  /** The access token the transport uses, fetched when none is cached. */
  token(signal?: AbortSignal): Promise<StoredToken>;
  /** The scopes the client asks for; each must be granted. */
  scopes: readonly string[];
}

/**
 * @param transport Sends the read.
 * @param environment The client's environment label.
 * @param access The driver's token, when it exposes it.
 * @returns `verifyCredentials(options)`.
 */
export function createVerify(
  transport: Transport,
  environment: string | undefined,
  access?: TokenAccess,
): (options?: CallOptions) => Promise<CredentialsCheck> {
  return async (options) => {
    const checked = checkCall(options);
    // Token endpoint first: a TokenEndpointError here is the client ID, the secret or the scopes asked for.
    const token = access ? await access.token(checked.signal) : undefined;
    const granted = token?.scope.split(' ').filter(Boolean);
    const missing = granted ? access!.scopes.filter((scope) => !granted.includes(scope)) : [];
    if (missing.length > 0) {
      throw new MissingScopeError({
        origin: 'token-endpoint',
        scope: missing[0],
        message:
          `The token endpoint granted ${granted!.join(' ') || 'no scope'} but not ${missing.join(' ')}; ask the ` +
          'operator to allow it for this client, or leave it out of the scopes option.',
      });
    }
    // Then the API: ApiKeyError (key), AuthenticationError (a token the API refuses: tokenUrl and baseUrl of
    // different environments), MissingScopeError (no read scope).
    await send(transport, { method: 'GET', path: '/organizations', query: { itemsPerPage: 1 } }, checked);
    return { environment, scopes: granted ?? [...(access?.scopes ?? [])] };
  };
}
