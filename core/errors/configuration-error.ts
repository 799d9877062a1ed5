import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * Bad client options, or a service set-up the client cannot work with (a token without `scope` claim, a token URL
 * that is no token endpoint, a 401 that persists with a fresh token: see {@link AuthenticationError}). Fix the
 * configuration; no retry helps.
 */
export class ConfigurationError extends PartnerLearningError {
  // Widened from the literal so the AuthenticationError subclass can name itself.
  override readonly name: 'ConfigurationError' | 'AuthenticationError' = 'ConfigurationError';

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.CONFIGURATION, init, false);
  }
}
