import { ErrorCode } from './codes.ts';
import type { ErrorInit } from './base.ts';
import { ConfigurationError } from './configuration-error.ts';

/**
 * A 401 that persisted after discarding the cached token and fetching a fresh one. The specification calls that a
 * configuration problem (token URL and base URL from different environments, a wrong token URL, or clock skew), so
 * this is a {@link ConfigurationError} too: `instanceof ConfigurationError` catches it, `code` tells it apart.
 */
export class AuthenticationError extends ConfigurationError {
  override readonly name = 'AuthenticationError' as const;
  override readonly code = ErrorCode.AUTHENTICATION;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(init);
  }
}
