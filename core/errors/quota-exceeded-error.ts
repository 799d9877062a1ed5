import { ErrorCode } from './codes.ts';
import { PartnerLearningError, type ErrorInit } from './base.ts';

/**
 * 429 `Limit Exceeded`: the usage plan's daily quota is used up. Not retried: waiting seconds does not help.
 */
export class QuotaExceededError extends PartnerLearningError {
  override readonly name = 'QuotaExceededError' as const;

  /** @param init Message and context (see {@link ErrorInit}). */
  constructor(init: ErrorInit) {
    super(ErrorCode.QUOTA_EXCEEDED, init, false);
  }
}
