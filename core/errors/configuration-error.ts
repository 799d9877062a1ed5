import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * Bad client options, or a service set-up the client cannot work with (e.g. a token without `scope` claim). Fix the configuration; no retry helps.
 */
export class ConfigurationError extends PartnerLearningError {
  override readonly name = 'ConfigurationError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.CONFIGURATION, init, false);
  }
}
