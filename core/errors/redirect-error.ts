import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * The service or the token endpoint answered with a redirect (3xx). Redirects are never followed: `fetch` would
 * send the API key to whatever origin `Location` names. The request was not repeated anywhere; fix `baseUrl` or
 * `tokenUrl` to the address that answers directly.
 */
export class RedirectError extends PartnerLearningError {
  override readonly name = 'RedirectError' as const;
  /** The origin (scheme, host, port) the redirect pointed at, when it named a valid one; never its path or query. */
  readonly locationOrigin?: string;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit & { locationOrigin?: string }) {
    super(ErrorCode.REDIRECT, init, false);
    this.locationOrigin = init.locationOrigin;
  }
}
