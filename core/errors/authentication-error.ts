import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * A 401 that persisted after discarding the cached token and fetching a fresh one: a configuration problem (token URL and base URL from different environments, a wrong token URL, or clock skew).
 */
export class AuthenticationError extends PartnerLearningError {
  override readonly name = 'AuthenticationError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.AUTHENTICATION, init, false);
  }
}
