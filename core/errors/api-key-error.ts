import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 403 with an empty body from the gateway: the `x-api-key` is missing, wrong or disabled (or swapped with the client ID).
 */
export class ApiKeyError extends PartnerLearningError {
  override readonly name = 'ApiKeyError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.API_KEY, init, false);
  }
}
